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

; Dynamic import("m").
(call_expression
  function: (import)
  arguments: (_ . [(_ "\"" (string_fragment) @import.source) (_ "'" (string_fragment) @import.source)])) @import
