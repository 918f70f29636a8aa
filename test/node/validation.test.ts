/** The schema builders of src/validation.ts: outputs, "dotted.path: message" problems in valibot's words, inferred types. */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as v from "../../src/validation";

const problems = <T>(schema: v.Schema<T>, value: unknown): string[] => {
  const parsed = v.parse(schema, value);
  return parsed.ok ? [] : parsed.problems;
};

describe("scalars", () => {
  it("reports a wrong type at the root, naming what was received", () => {
    expect(problems(v.number(), "7")).toEqual(['(root): Invalid type: Expected number but received "7"']);
    expect(problems(v.number(), NaN)).toEqual(["(root): Invalid type: Expected number but received NaN"]);
    expect(problems(v.string(), null)).toEqual(["(root): Invalid type: Expected string but received null"]);
    expect(problems(v.string(), undefined)).toEqual(["(root): Invalid type: Expected string but received undefined"]);
    expect(problems(v.boolean(), [])).toEqual(["(root): Invalid type: Expected boolean but received Array"]);
    expect(problems(v.object({}), 3)).toEqual(["(root): Invalid type: Expected Object but received 3"]);
    expect(v.parse(v.number(), 7)).toEqual({ ok: true, value: 7 });
  });

  it("reports every bound a number breaks, integer before the bounds", () => {
    expect(problems(v.number({ integer: true, min: 1 }), 0.5)).toEqual([
      "(root): Invalid integer: Received 0.5",
      "(root): Invalid value: Expected >=1 but received 0.5",
    ]);
    expect(problems(v.number({ min: 0, max: 1 }), 3)).toEqual(["(root): Invalid value: Expected <=1 but received 3"]);
    expect(problems(v.number({ gt: 0 }), 0)).toEqual(["(root): Invalid value: Expected >0 but received 0"]);
    expect(problems(v.number({ finite: true }), Infinity)).toEqual(["(root): Invalid finite: Received Infinity"]);
    expect(problems(v.number({ integer: true, min: -1, max: 1, gt: -2, finite: true }), -1)).toEqual([]);
  });

  it("checks a string's length and pattern", () => {
    expect(problems(v.string({ nonEmpty: true }), "")).toEqual(["(root): Invalid length: Expected !0 but received 0"]);
    expect(problems(v.string({ minLength: 2, maxLength: 3 }), "a")).toEqual(["(root): Invalid length: Expected >=2 but received 1"]);
    expect(problems(v.string({ maxLength: 3 }), "abcd")).toEqual(["(root): Invalid length: Expected <=3 but received 4"]);
    expect(problems(v.string({ pattern: /^\d+$/ }), "12a")).toEqual(['(root): Invalid format: Expected /^\\d+$/ but received "12a"']);
  });

  it("takes a literal or one of a list", () => {
    expect(problems(v.literal(2), 3)).toEqual(["(root): Invalid type: Expected 2 but received 3"]);
    expect(problems(v.picklist(["a", "b"]), "c")).toEqual(['(root): Invalid type: Expected ("a" | "b") but received "c"']);
    expect(problems(v.picklist([1, 2]), 2)).toEqual([]);
  });

  it("runs a check only on a value of the right type", () => {
    const even = v.check(v.number({ min: 0 }), (value) => value % 2 === 0, "an even number");
    expect(problems(even, 3)).toEqual(["(root): an even number"]);
    expect(problems(even, -3)).toEqual(["(root): Invalid value: Expected >=0 but received -3", "(root): an even number"]);
    expect(problems(even, "3")).toEqual(['(root): Invalid type: Expected number but received "3"']);
  });
});

describe("objects and arrays", () => {
  const rule = v.object({ pattern: v.string({ nonEmpty: true }), count: v.number({ integer: true, min: 0 }) });
  const set = v.object({
    site: v.string(),
    rules: v.array(rule),
    tags: v.optional(v.array(v.string(), { minLength: 1 })),
    limit: v.optional(v.number(), 10),
    meta: v.optional(v.object({ title: v.optional(v.array(v.string())) })),
  });

  it("reports every problem with its dotted path, missing keys included", () => {
    expect(problems(set, { rules: [{ pattern: "", count: 1.5 }, 7, {}], tags: [], meta: { title: ["h1", 2] } })).toEqual([
      'site: Invalid key: Expected "site" but received undefined',
      "rules.0.pattern: Invalid length: Expected !0 but received 0",
      "rules.0.count: Invalid integer: Received 1.5",
      "rules.1: Invalid type: Expected Object but received 7",
      'rules.2.pattern: Invalid key: Expected "pattern" but received undefined',
      'rules.2.count: Invalid key: Expected "count" but received undefined',
      "tags: Invalid length: Expected >=1 but received 0",
      "meta.title.1: Invalid type: Expected string but received 2",
    ]);
  });

  it("drops unknown keys, leaves absent optional keys absent and fills a default", () => {
    const parsed = v.parse(set, { site: "a", rules: [{ pattern: "x", count: 0, note: "dropped" }], extra: true });
    expect(parsed).toEqual({ ok: true, value: { site: "a", rules: [{ pattern: "x", count: 0 }], limit: 10 } });
    expect(parsed.ok && Object.keys(parsed.value)).toEqual(["site", "rules", "limit"]);
    expect(v.parse(set, { site: "a", rules: [], limit: 3 })).toEqual({ ok: true, value: { site: "a", rules: [], limit: 3 } });
    expect(problems(set, { site: "a", rules: [], limit: "3" })).toEqual(['limit: Invalid type: Expected number but received "3"']);
  });

  it("refuses the first unknown key of a strict object", () => {
    const strict = v.strictObject({ origin: v.string(), site: v.optional(v.string()) });
    expect(problems(strict, { origin: "o", junk: 1, more: 2 })).toEqual(['junk: Invalid key: Expected never but received "junk"']);
    expect(v.parse(strict, { origin: "o" })).toEqual({ ok: true, value: { origin: "o" } });
  });

  it("does not take an array for an object or a record", () => {
    expect(problems(set, [])).toEqual(["(root): Invalid type: Expected Object but received Array"]);
    expect(problems(v.record(v.string(), v.unknown()), ["a"])).toEqual(["(root): Invalid type: Expected Object but received Array"]);
  });

  it("checks a record's keys and values, skipping prototype keys", () => {
    const origins = v.record(v.string({ nonEmpty: true }), v.number());
    expect(problems(origins, { "": 1, b: "2" })).toEqual([
      ": Invalid length: Expected !0 but received 0",
      'b: Invalid type: Expected number but received "2"',
    ]);
    expect(v.parse(origins, JSON.parse('{"a": 1, "__proto__": 2, "constructor": 3}'))).toEqual({ ok: true, value: { a: 1 } });
  });

  it("judges an array's length only when its items have the right type", () => {
    const list = v.array(v.number(), { minLength: 2 });
    expect(problems(list, [1])).toEqual(["(root): Invalid length: Expected >=2 but received 1"]);
    expect(problems(list, ["1"])).toEqual(['0: Invalid type: Expected number but received "1"']);
  });
});

describe("union", () => {
  const nonEmpty = v.string({ nonEmpty: true });
  const origin = v.union([nonEmpty, v.strictObject({ origin: nonEmpty, site: v.optional(nonEmpty) })]);

  it("takes the first option that passes", () => {
    expect(v.parse(origin, "https://a.example")).toEqual({ ok: true, value: "https://a.example" });
    expect(v.parse(origin, { origin: "https://a.example", site: "a" })).toEqual({ ok: true, value: { origin: "https://a.example", site: "a" } });
  });

  it("reports the problems of the one option whose type matched, else one type problem", () => {
    expect(problems(origin, "")).toEqual(["(root): Invalid length: Expected !0 but received 0"]);
    expect(problems(origin, { origin: "" })).toEqual(["origin: Invalid length: Expected !0 but received 0"]);
    expect(problems(origin, 5)).toEqual(["(root): Invalid type: Expected (string | Object) but received 5"]);
    expect(problems(origin, { origin: 5 })).toEqual(["(root): Invalid type: Expected (string | Object) but received Object"]);
    expect(problems(v.object({ a: origin }), { a: null })).toEqual(["a: Invalid type: Expected (string | Object) but received null"]);
  });
});

describe("inferred types", () => {
  it("gives each schema its output type", () => {
    const schema = v.object({
      kind: v.picklist(["a", "b"]),
      version: v.literal(2),
      list: v.array(v.number()),
      note: v.optional(v.string()),
      limit: v.optional(v.number(), 10),
      value: v.union([v.string(), v.object({ origin: v.string() })]),
      notes: v.record(v.string(), v.unknown()),
    });
    expectTypeOf<v.Infer<typeof schema>>().toEqualTypeOf<{
      kind: "a" | "b";
      version: 2;
      list: number[];
      note?: string | undefined;
      limit: number;
      value: string | { origin: string };
      notes: Record<string, unknown>;
    }>();
  });
});
