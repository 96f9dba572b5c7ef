; JavaScript (and JSX, .mjs, .cjs) definitions. Capture conventions: see src/lang/extract.ts.
; Earlier patterns win when two match the same definition node.
; Below a pattern's root some nodes are wildcards pinned down by fields or tokens that only the
; intended node type has in that position (`(_ !operator left: right:)` under expression_statement is
; an assignment_expression, `(_ object: property:)` a member_expression, `(_ function: arguments:)` a
; call_expression, `(_ "\"" (string_fragment))` a string). They match the same nodes, but tree-sitter
; analyses every named parent step against the parse table when it compiles a query and skips
; wildcard ones, which makes the query several times cheaper to compile (and no slower to run).

; Functions bound to names: `const f = () => ...`, `var g = function () {}` (at any depth).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function

; `Foo.prototype.f = function () {}` is a method of Foo.
; `!function !argument !constructor` are fields an assignment never has: they turn calls, `i++`
; and `new` statements away on sight instead of following them down their subtrees.
(expression_statement
  (_
    !operator !function !argument !constructor
    left: (_
      object: (_
        object: (identifier) @scope
        property: (property_identifier) @_prototype)
      property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)]) @def.method
  (#eq? @_prototype "prototype"))

; `app.listen = function listen() {}`, `Foo.create = () => ...`: a method of the object named.
(expression_statement
  (_
    !operator !function !argument !constructor
    left: (_ object: (identifier) @scope property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)]) @def.method
  (#not-match? @scope "^(exports|module|window|global|globalThis|self)$"))

; `f = function () {}`, `exports.f = () => ...` (a named function expression is named by itself)
(expression_statement
  (_
    !operator !function !argument !constructor
    left: [
      (identifier) @name
      (_ property: (property_identifier) @name)
    ]
    right: [(arrow_function) (function_expression !name) (generator_function !name)]) @def.function)

; Functions in object literals: `{ index: function (req, res) {}, show() {} }`
(pair
  key: [(property_identifier) (string)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.method

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(function_expression name: (identifier) @name) @def.function

(class_declaration name: (_) @name) @def.class
(class name: (_) @name) @def.class

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @def.constructor
(method_definition name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @def.method
(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression)]) @def.method
(field_definition property: (_) @name) @def.field

; A program's or block's own children are named by type: a wildcard there would try every
; statement and cost matching time. One level down, `(_ kind: ...)` in an export's declaration is a
; lexical_declaration, `(_ "var" ...)` a variable_declaration, and their `(_ name: ...)` children
; are variable_declarators.
; Top-level variables and constants.
(program (lexical_declaration kind: "const" (_ name: (identifier) @name) @def.constant))
(program (lexical_declaration (_ name: (identifier) @name) @def.variable))
(program (variable_declaration (_ name: (identifier) @name) @def.variable))
(program (export_statement declaration: (_ kind: "const" (_ name: (identifier) @name) @def.constant)))
(program (export_statement declaration: (_ kind: _ (_ name: (identifier) @name) @def.variable)))
(program (export_statement declaration: (_ "var" (_ name: (identifier) @name) @def.variable)))

; Default exports: anonymous ones are named "default"; named ones are flagged.
(export_statement "default" @name value: [(arrow_function) (function_expression) (generator_function)]) @def.function
(export_statement "default" @name value: (class)) @def.class
(export_statement "default" declaration: (_) @flag.default_export)
(export_statement "default" value: [(class) (function_expression) (generator_function)] @flag.default_export) @flag.default_export
(export_statement "default" value: (arrow_function)) @flag.default_export
; `export default helper;` and `export { helper as default }` flag the declaration of `helper`.
(export_statement "default" value: (identifier) @flag_name.default_export)
(export_statement (export_clause (export_specifier name: (identifier) @flag_name.default_export alias: "default")) !source)
; `export { Hono as HonoBase }`, `export { helper }`: the declaration is exported (hono's class Hono
; in hono-base.ts was no entry point, and dead-code listed its fetch, request and fire).
(export_statement (export_clause (export_specifier name: (identifier) @flag_name.exported)) !source)
; Any other value (`export default { name, setup() {} }`, `export default defineConfig({...})`)
; is a constant named "default": the value a default import gets, and the parent of its members.
(export_statement "default" @name value: (_) @_value (#not-match? @_value "^[A-Za-z_$][A-Za-z0-9_$]*$")) @def.constant @flag.default_export
(export_statement declaration: (_) @flag.exported)
; CommonJS: what `module.exports` is assigned is what `require` returns, the module's default
; (express's `exports = module.exports = createApplication`, `module.exports = function slugify()
; {}`): `var express = require('..'); express()` calls it.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (identifier) @flag_name.default_export
  (#eq? @_module "module") (#eq? @_exports "exports"))
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: [(function_expression) (generator_function) (class) (arrow_function)] @flag.default_export
  (#eq? @_module "module") (#eq? @_exports "exports")) @flag.default_export

; What a class extends (resolution finds inherited members through it).
(class_declaration (class_heritage (_) @base)) @base.of
(class (class_heritage (_) @base)) @base.of
(export_statement "default" value: (class (class_heritage (_) @base))) @base.of
