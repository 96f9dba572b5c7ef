; File-level dependencies for the impact graph (not symbol imports: see imports.scm). For the
; JavaScript family these patterns are the reference: src/lang/deps.ts finds the same dependencies
; without a query pass when it has the text (test/impact/deps.test.ts checks that they agree).
;   @dep.static   a module specifier string of an import/export statement (@dep is the statement)
;   @dep.require  the first argument of require(...)
;   @dep.dynamic  the first argument of import(...)
;   @dep.const    a file-level constant (@dep.const_name = @dep.const) for concatenations
(import_statement source: (string) @dep.static) @dep
(export_statement source: (string) @dep.static) @dep
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (_) @dep.require)
  (#eq? @_require "require")) @dep
(call_expression
  function: (import)
  arguments: (arguments . (_) @dep.dynamic)) @dep
(program
  (lexical_declaration
    (variable_declarator name: (identifier) @dep.const_name value: [(string) (template_string)] @dep.const)) @dep)
