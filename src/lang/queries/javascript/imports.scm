; JavaScript imports. Capture conventions: see src/lang/extract.ts.

(import_statement source: (string (string_fragment) @import.source)) @import
(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.source)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.source)) @import
(import_statement
  (import_clause (namespace_import (identifier) @import.alias) @import.wildcard)
  source: (string (string_fragment) @import.source)) @import

; Re-exports.
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string (string_fragment) @import.source)) @import
(export_statement "*" @import.wildcard source: (string (string_fragment) @import.source)) @import

; CommonJS: `const x = require("m")`, `const {a, b: c} = require("m")`, bare `require("m")`.
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_require "require")) @import
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @import.name
    (pair_pattern key: (_) @import.name value: (identifier) @import.alias)
  ])
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_require "require")) @import
(expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @import.source) .))
  (#eq? @_require "require")) @import

; Dynamic import("m").
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.source))) @import
