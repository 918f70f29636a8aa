// The Worker in workerd from Node lives with the scripts (scripts/lib/workerd.ts), which use it too.
export * from "../../scripts/lib/workerd";
