; TypeScript and TSX definitions. Capture conventions: see src/lang/extract.ts.
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

; Overload signatures and `declare function`.
(program (function_signature name: (identifier) @name) @def.function @flag.overload)
(program (export_statement declaration: (function_signature name: (identifier) @name) @def.function @flag.overload))
(function_signature name: (identifier) @name) @def.function

(abstract_class_declaration name: (_) @name) @def.abstract_class
(class_declaration name: (_) @name) @def.class
(class name: (_) @name) @def.class

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @def.constructor
(method_definition name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @def.method
; An overload or ambient signature of the constructor (`constructor(x: number);`).
(class_body
  (method_signature
    name: (property_identifier) @name
    (#eq? @name "constructor")) @def.constructor @flag.overload)
(class_body (method_signature name: (_) @name) @def.method @flag.overload)
(interface_body (method_signature name: (_) @name) @def.method)
; The value holding member signatures is an object_type.
(type_alias_declaration value: (_ (method_signature name: (_) @name) @def.method))
(abstract_method_signature name: (_) @name) @def.method @flag.abstract
; A class_body child with a name and a value is a public_field_definition (`!body` turns methods
; away on sight). Outside class_body one is met only in error recovery, as a child of ERROR, where
; its name types tell it apart.
(class_body
  (_
    !body
    name: (_) @name
    value: [(arrow_function) (function_expression)]) @def.method)
(ERROR
  (_
    name: [(property_identifier) (private_property_identifier) (string) (number) (computed_property_name)] @name
    value: [(arrow_function) (function_expression)]) @def.method)
(public_field_definition name: (_) @name) @def.field
(interface_body (property_signature name: (_) @name) @def.field)
(type_alias_declaration value: (_ (property_signature name: (_) @name) @def.field))

(interface_declaration name: (_) @name) @def.interface
(type_alias_declaration name: (_) @name) @def.type_alias
(enum_declaration name: (_) @name) @def.enum
(enum_body name: (property_identifier) @name @def.enum_member)
(enum_body (enum_assignment name: (property_identifier) @name) @def.enum_member)

(internal_module name: (nested_identifier) @name.qualified) @def.namespace
(internal_module name: (_) @name) @def.namespace
(module name: (_) @name) @def.module

; A program's or block's own children are named by type: a wildcard there would try every
; statement and cost matching time. One level down, `(_ kind: ...)` in an export's declaration is a
; lexical_declaration, `(_ "var" ...)` a variable_declaration, and their `(_ name: ...)` children
; are variable_declarators.
; Top-level variables and constants (and those exported from a namespace).
(program (lexical_declaration kind: "const" (_ name: (identifier) @name) @def.constant))
(program (lexical_declaration (_ name: (identifier) @name) @def.variable))
(program (variable_declaration (_ name: (identifier) @name) @def.variable))
(program (export_statement declaration: (_ kind: "const" (_ name: (identifier) @name) @def.constant)))
(program (export_statement declaration: (_ kind: _ (_ name: (identifier) @name) @def.variable)))
(program (export_statement declaration: (_ "var" (_ name: (identifier) @name) @def.variable)))
(program (ambient_declaration (_ kind: "const" (_ name: (identifier) @name) @def.constant)))
(program (ambient_declaration (_ kind: _ (_ name: (identifier) @name) @def.variable)))
(program (ambient_declaration (_ "var" (_ name: (identifier) @name) @def.variable)))
(statement_block (export_statement declaration: (_ kind: "const" (_ name: (identifier) @name) @def.constant)))
(statement_block (export_statement declaration: (_ kind: _ (_ name: (identifier) @name) @def.variable)))

; Default exports: anonymous ones are named "default"; named ones are flagged.
(export_statement "default" @name value: [(arrow_function) (function_expression) (generator_function)]) @def.function
(export_statement "default" @name value: (class)) @def.class
(export_statement "default" declaration: (_) @flag.default_export)
(export_statement "default" value: [(class) (function_expression) (generator_function)] @flag.default_export) @flag.default_export
(export_statement "default" value: (arrow_function)) @flag.default_export
; `export default helper;` and `export { helper as default }` flag the declaration of `helper`.
(export_statement "default" value: (identifier) @flag_name.default_export)
(export_statement (export_clause (export_specifier name: (identifier) @flag_name.default_export alias: (identifier) @_alias (#eq? @_alias "default"))) !source)
; `export { Hono as HonoBase }`, `export { helper }`: the declaration is exported (hono's class Hono
; in hono-base.ts was no entry point, and dead-code listed its fetch, request and fire).
(export_statement (export_clause (export_specifier name: (identifier) @flag_name.exported)) !source)
; Any other value (`export default { name, setup() {} }`, `export default defineConfig({...})`)
; is a constant named "default": the value a default import gets, and the parent of its members.
(export_statement "default" @name value: (_) @_value (#not-match? @_value "^[A-Za-z_$][A-Za-z0-9_$]*$")) @def.constant @flag.default_export
(export_statement declaration: (_) @flag.exported)

; What a class or interface extends and implements (resolution finds inherited members through it).
(class_declaration (class_heritage (extends_clause value: (_) @base))) @base.of
(class_declaration (class_heritage (implements_clause (_) @base))) @base.of
(abstract_class_declaration (class_heritage (extends_clause value: (_) @base))) @base.of
(abstract_class_declaration (class_heritage (implements_clause (_) @base))) @base.of
(class (class_heritage (extends_clause value: (_) @base))) @base.of
(export_statement "default" value: (class (class_heritage (extends_clause value: (_) @base)))) @base.of
(interface_declaration (extends_type_clause type: (_) @base)) @base.of

; A field's declared type when it names one type (resolution follows `this.f.m()` through it).
(public_field_definition type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @type)) @type.of
; A function's declared return type: what `const x = make()` holds.
(function_declaration return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @type)) @type.of
; A method's: what a chain's next call is made on (`repo.createQueryBuilder("u").where("a")`;
; `where(): this` keeps the chain's own type).
(method_definition return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (this_type)] @type)) @type.of
(method_signature return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (this_type)] @type)) @type.of
(abstract_method_signature return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (this_type)] @type)) @type.of
(property_signature type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @type)) @type.of
; `Foo | null`, `Foo | undefined` (either way round) name Foo.
(public_field_definition type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @type [(literal_type) (predefined_type)]))) @type.of
(public_field_definition type: (type_annotation (union_type [(literal_type) (predefined_type)] [(type_identifier) (nested_type_identifier) (generic_type)] @type))) @type.of
(property_signature type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @type [(literal_type) (predefined_type)]))) @type.of
(property_signature type: (type_annotation (union_type [(literal_type) (predefined_type)] [(type_identifier) (nested_type_identifier) (generic_type)] @type))) @type.of

; A constructor's parameter property (`constructor(private readonly repo: Repo)`) is a field of
; the class (@hoist: of the scope around the constructor), with its declared type.
(method_definition
  name: (property_identifier) @_ctor (#eq? @_ctor "constructor")
  parameters: (formal_parameters [(required_parameter [(accessibility_modifier) "readonly"] pattern: (identifier) @name) (optional_parameter [(accessibility_modifier) "readonly"] pattern: (identifier) @name)] @def.field @hoist))
(method_definition
  name: (property_identifier) @_ctor (#eq? @_ctor "constructor")
  parameters: (formal_parameters [(required_parameter [(accessibility_modifier) "readonly"] type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @type)) (optional_parameter [(accessibility_modifier) "readonly"] type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @type))] @type.of))
