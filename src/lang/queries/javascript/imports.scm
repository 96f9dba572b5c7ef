; JavaScript imports. Capture conventions: see src/lang/extract.ts.
; Wildcard parents below the root: see symbols.scm.

(import_statement source: (_ (string_fragment) @import.source)) @import
(import_statement
  (import_clause (identifier) @import.default)
  source: (_ (string_fragment) @import.source)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (_ (string_fragment) @import.source)) @import
(import_statement
  (import_clause (namespace_import (identifier) @import.alias) @import.wildcard)
  source: (_ (string_fragment) @import.source)) @import

; Re-exports.
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (_ (string_fragment) @import.source)) @import
(export_statement "*" @import.wildcard source: (_ (string_fragment) @import.source)) @import
; `export * as core from "./core"`: the module's namespace under a name (zod's v4 index).
(export_statement
  (namespace_export (identifier) @import.alias) @import.wildcard
  source: (_ (string_fragment) @import.source)) @import
; The module's own declaration exported under another name, `export { Hono as HonoBase }` (hono's
; hono-base.ts): an import of the module itself (source ""), so that `import { HonoBase } from
; './hono-base'` reaches Hono as a re-export does. No reference: the clause's names are read ones.
(export_statement
  (export_clause (export_specifier name: (identifier) @import.name alias: (identifier) @import.alias))
  !source
  (#not-eq? @import.alias "default")) @import @import.own

; CommonJS: `const x = require("m")`, `const {a, b: c} = require("m")`, bare `require("m")`.
(variable_declarator
  name: (identifier) @import.alias
  value: (_
    function: (identifier) @_require
    arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .))
  (#eq? @_require "require")) @import
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @import.name
    (pair_pattern key: (_) @import.name value: (identifier) @import.alias)
  ])
  value: (_
    function: (identifier) @_require
    arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .))
  (#eq? @_require "require")) @import
(expression_statement
  (_
    function: (identifier) @_require
    arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .))
  (#eq? @_require "require")) @import
; `module.exports = require("./lib/express")` (express's index.js): the module passes on all
; that one exports, its default (what `require` returns) too.
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    right: (call_expression
      function: (identifier) @_require
      arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .)) @import.wildcard)
  (#eq? @_module "module") (#eq? @_exports "exports") (#eq? @_require "require")) @import
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    right: (call_expression
      function: (identifier) @_require
      arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .)) @import.default_passed)
  (#eq? @_module "module") (#eq? @_exports "exports") (#eq? @_require "require")) @import

; Dynamic import("m").
(call_expression
  function: (import)
  arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)])) @import
; `const {Foo, b: c} = await import("m")`, `const m = await import("m")`: bound as `require`'s are
; (a dynamic import's names were locals, and their uses no references at all).
(variable_declarator
  name: (identifier) @import.alias
  value: (await_expression (call_expression
    function: (import)
    arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .)))) @import
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @import.name
    (pair_pattern key: (_) @import.name value: (identifier) @import.alias)
  ])
  value: (await_expression (call_expression
    function: (import)
    arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)] .)))) @import
