/**
 * Schema validation for the JSON the Worker loads (the model, rule sets, proxy and demo settings): a few schema
 * builders of our own, plain closures with the output type inferred, so the bundle carries only these checks
 * (valibot cost the Worker 9 KiB, zod/mini 25). Every problem is reported as "dotted.path: message", "(root)"
 * for the value itself, in the words valibot used ("Invalid type: Expected number but received "x"").
 */

/** Returned by a schema whose value is not even of the right shape (valibot's "untyped"): a check after it does not run. */
const INVALID: unique symbol = Symbol("invalid");
type Invalid = typeof INVALID;

/** Where a schema runs: the path to its value (pushed and popped, joined only for a problem) and the problems so far. */
interface Context {
  readonly path: (string | number)[];
  problems: string[];
}

export interface Schema<T> {
  /** What the value must be, as a message says it ("number", "Object", "(\"a\" | \"b\")"). */
  readonly expects: string;
  /** The output, or INVALID when the value has the wrong type somewhere inside; problems go to the context. */
  readonly run: (value: unknown, context: Context) => T | Invalid;
}

/** A schema an object may lack: absent, or given a default. */
export interface OptionalSchema<T, D extends T | undefined> extends Schema<T | (D extends undefined ? undefined : never)> {
  readonly optional: true;
  readonly fallback: D;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Validates a value; the output keeps only the keys an object schema names. */
export function parse<T>(schema: Schema<T>, value: unknown): ParseResult<T> {
  const context: Context = { path: [], problems: [] };
  const output = schema.run(value, context);
  return context.problems.length === 0 ? { ok: true, value: output as T } : { ok: false, problems: context.problems };
}

/** valibot's way of naming a received value: strings quoted, objects by their constructor. */
function describe(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${value}`;
  if (typeof value === "object" || typeof value === "function") {
    return (value && (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name) || "null";
  }
  return typeof value;
}

function report(context: Context, message: string): void {
  context.problems.push(`${context.path.length === 0 ? "(root)" : context.path.join(".")}: ${message}`);
}

/** A problem in valibot's words: "Invalid value: Expected >=0 but received -1", "Invalid integer: Received 1.5". */
function problem(context: Context, label: string, expected: string | null, received: unknown): void {
  report(context, `Invalid ${label}: ${expected === null ? "R" : `Expected ${expected} but r`}eceived ${describe(received)}`);
}

/** A value of the wrong type (or an object of the wrong keys): reported, and INVALID so that no later check runs on it. */
function invalid(context: Context, label: string, expected: string, received: unknown): Invalid {
  problem(context, label, expected, received);
  return INVALID;
}

/** Runs a schema on a value one key deeper. */
function at<T>(context: Context, key: string | number, schema: Schema<T>, value: unknown): T | Invalid {
  context.path.push(key);
  const output = schema.run(value, context);
  context.path.pop();
  return output;
}

/** A schema that checks the type only. */
function typed<T>(expects: string, is: (value: unknown) => boolean): Schema<T> {
  return { expects, run: (value, context) => (is(value) ? (value as T) : invalid(context, "type", expects, value)) };
}

export interface NumberRules {
  readonly integer?: boolean;
  readonly finite?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** Strictly greater than. */
  readonly gt?: number;
}

/** A number (never NaN); every rule it breaks is reported, in the order finite, integer, gt, min, max. */
export function number(rules: NumberRules = {}): Schema<number> {
  const { integer, finite, min, max, gt } = rules;
  return {
    expects: "number",
    run(value, context) {
      if (typeof value !== "number" || Number.isNaN(value)) return invalid(context, "type", "number", value);
      if (finite && !Number.isFinite(value)) problem(context, "finite", null, value);
      if (integer && !Number.isInteger(value)) problem(context, "integer", null, value);
      if (gt !== undefined && !(value > gt)) problem(context, "value", `>${gt}`, value);
      if (min !== undefined && !(value >= min)) problem(context, "value", `>=${min}`, value);
      if (max !== undefined && !(value <= max)) problem(context, "value", `<=${max}`, value);
      return value;
    },
  };
}

export interface StringRules {
  readonly nonEmpty?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: RegExp;
}

export function string(rules: StringRules = {}): Schema<string> {
  const { nonEmpty, minLength, maxLength, pattern } = rules;
  return {
    expects: "string",
    run(value, context) {
      if (typeof value !== "string") return invalid(context, "type", "string", value);
      if (nonEmpty && value.length === 0) problem(context, "length", "!0", 0);
      if (minLength !== undefined && value.length < minLength) problem(context, "length", `>=${minLength}`, value.length);
      if (maxLength !== undefined && value.length > maxLength) problem(context, "length", `<=${maxLength}`, value.length);
      if (pattern && !pattern.test(value)) problem(context, "format", `${pattern}`, value);
      return value;
    },
  };
}

export const boolean = (): Schema<boolean> => typed("boolean", (value) => typeof value === "boolean");

/** Any value, unchecked (for fields kept only as a record, such as a model's training notes). */
export const unknown = (): Schema<unknown> => ({ expects: "unknown", run: (value) => value });

type Primitive = string | number | boolean | null;

export function literal<const T extends Primitive>(expected: T): Schema<T> {
  return typed(describe(expected), (value) => value === expected);
}

/** One of a fixed list of values. */
export function picklist<const T extends readonly Primitive[]>(options: T): Schema<T[number]> {
  return typed(joinExpects(options.map(describe)), (value) => (options as readonly unknown[]).includes(value));
}

function joinExpects(expects: readonly string[]): string {
  const distinct = [...new Set(expects)];
  return distinct.length > 1 ? `(${distinct.join(" | ")})` : (distinct[0] ?? "never");
}

/** A value that may be undefined (or an absent key); with a fallback, undefined becomes the fallback. */
export function optional<T>(schema: Schema<T>): OptionalSchema<T, undefined>;
export function optional<T, const D extends T>(schema: Schema<T>, fallback: D): OptionalSchema<T, D>;
export function optional<T>(schema: Schema<T>, fallback?: T): OptionalSchema<T, T | undefined> {
  return {
    expects: `(${schema.expects} | undefined)`,
    optional: true,
    fallback,
    run: (value, context) => (value !== undefined ? schema.run(value, context) : fallback === undefined ? undefined : schema.run(fallback, context)),
  };
}

/** The schema's checks, then a predicate on its output (skipped when the value has the wrong type). */
export function check<T>(schema: Schema<T>, predicate: (value: T) => boolean, message: string): Schema<T> {
  return {
    expects: schema.expects,
    run(value, context) {
      const output = schema.run(value, context);
      if (output !== INVALID && !predicate(output)) report(context, message);
      return output;
    },
  };
}

export function array<T>(item: Schema<T>, rules: { readonly minLength?: number } = {}): Schema<T[]> {
  const { minLength } = rules;
  return {
    expects: "Array",
    run(value, context) {
      if (!Array.isArray(value)) return invalid(context, "type", "Array", value);
      const output: T[] = new Array(value.length);
      let shaped = true;
      for (let index = 0; index < value.length; index++) {
        const element = at(context, index, item, value[index]);
        if (element === INVALID) shaped = false;
        output[index] = element as T;
      }
      // As in valibot's pipe, a length is judged only on a well-typed array.
      if (shaped && minLength !== undefined && value.length < minLength) problem(context, "length", `>=${minLength}`, value.length);
      return shaped ? output : INVALID;
    },
  };
}

type Entries = Readonly<Record<string, Schema<unknown>>>;
/** Keys whose schema is optional with no fallback: they may be absent from the output. */
type AbsentKeys<E extends Entries> = { [K in keyof E]: E[K] extends OptionalSchema<infer _T, undefined> ? K : never }[keyof E];
type Flatten<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOutput<E extends Entries> = Flatten<
  { [K in Exclude<keyof E, AbsentKeys<E>>]: Infer<E[K]> } & { [K in AbsentKeys<E>]?: Infer<E[K]> }
>;

/** A JSON object (arrays are not objects here); the output holds only the named keys. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** An object with the given keys; unknown keys are dropped from the output (or, strict, reported: the first one). */
function objectSchema<E extends Entries>(entries: E, strict: boolean): Schema<ObjectOutput<E>> {
  const keys = Object.keys(entries);
  return {
    expects: "Object",
    run(value, context) {
      if (!isObject(value)) return invalid(context, "type", "Object", value);
      const output: Record<string, unknown> = {};
      let shaped = true;
      for (const key of keys) {
        const schema = entries[key] as Schema<unknown> & Partial<OptionalSchema<unknown, unknown>>;
        if (!hasOwn(value, key) && schema.optional) {
          if (schema.fallback !== undefined) output[key] = schema.fallback;
          continue;
        }
        context.path.push(key);
        const field = hasOwn(value, key) ? schema.run(value[key], context) : invalid(context, "key", `"${key}"`, undefined);
        context.path.pop();
        if (field === INVALID) shaped = false;
        output[key] = field;
      }
      const extra = strict ? Object.keys(value).find((key) => !hasOwn(entries, key)) : undefined;
      if (extra !== undefined) {
        context.path.push(extra);
        problem(context, "key", "never", extra);
        context.path.pop();
        shaped = false;
      }
      return shaped ? (output as ObjectOutput<E>) : INVALID;
    },
  };
}

export const object = <E extends Entries>(entries: E): Schema<ObjectOutput<E>> => objectSchema(entries, false);
export const strictObject = <E extends Entries>(entries: E): Schema<ObjectOutput<E>> => objectSchema(entries, true);

/**
 * An object of any keys (own ones, never "__proto__", "prototype" or "constructor"), each key and value checked. Keys
 * of a closed set (a picklist) may each be absent.
 */
export function record<K extends string, V>(key: Schema<K>, item: Schema<V>): Schema<string extends K ? Record<K, V> : Partial<Record<K, V>>> {
  return {
    expects: "Object",
    run(value, context) {
      if (!isObject(value)) return invalid(context, "type", "Object", value);
      const output: Record<string, V> = {};
      let shaped = true;
      for (const name of Object.keys(value)) {
        if (name === "__proto__" || name === "prototype" || name === "constructor") continue;
        const checkedKey = at(context, name, key, name);
        const checkedValue = at(context, name, item, value[name]);
        if (checkedKey === INVALID || checkedValue === INVALID) shaped = false;
        else output[checkedKey] = checkedValue;
      }
      return shaped ? (output as string extends K ? Record<K, V> : Partial<Record<K, V>>) : INVALID;
    },
  };
}

/**
 * The first option the value passes. Failing all: the problems of the one option whose type matched (valibot's
 * rule: `{origin: ""}` against string or object is an object with an empty origin), else one "Invalid type".
 */
export function union<const S extends readonly Schema<unknown>[]>(options: S): Schema<Infer<S[number]>> {
  const expects = joinExpects(options.map((option) => option.expects));
  return {
    expects,
    run(value, context) {
      const outer = context.problems;
      const shaped: string[][] = [];
      const misshaped: string[][] = [];
      try {
        for (const option of options) {
          context.problems = [];
          const output = option.run(value, context);
          if (context.problems.length === 0) return output as Infer<S[number]>;
          (output === INVALID ? misshaped : shaped).push(context.problems);
        }
      } finally {
        context.problems = outer;
      }
      const only = shaped.length === 1 ? shaped[0] : shaped.length === 0 && misshaped.length === 1 ? misshaped[0] : null;
      if (only !== null) outer.push(...only);
      else problem(context, "type", expects, value);
      return shaped.length > 0 ? (value as Infer<S[number]>) : INVALID;
    },
  };
}
