; Rust definitions. Capture conventions: see src/lang/extract.ts.
; An impl block is a symbol of kind "impl" named after its type (`Foo`), or `<Foo as Trait>` for a
; trait impl, so methods of different impls have different scopes. Earlier patterns win.
; Below a pattern's root some nodes are wildcards pinned by fields only one node type has in that
; place: in an impl's type, `(_ type: type_arguments:)` is a generic_type and `(_ name:)` a
; scoped_type_identifier; a body is a declaration_list, and in it `(_ name: parameters: body:)` is
; a function_item and `(... !body)` a function_signature_item. Same matches; tree-sitter skips
; wildcard parents in the analysis it runs when it compiles a query.

(impl_item
  trait: (_) @trait
  type: [
    (type_identifier) @name
    (_ type: (type_identifier) @name type_arguments: (_))
    (_ name: (type_identifier) @name)
    (_ type: (_ name: (type_identifier) @name) type_arguments: (_))
  ]) @def.impl
(impl_item trait: (_) @trait type: (_) @name) @def.impl
(impl_item
  type: [
    (type_identifier) @name
    (_ type: (type_identifier) @name type_arguments: (_))
    (_ name: (type_identifier) @name)
    (_ type: (_ name: (type_identifier) @name) type_arguments: (_))
  ]) @def.impl
(impl_item type: (_) @name) @def.impl

(impl_item body: (_ (_ name: (identifier) @name parameters: (_) body: (_)) @def.method))
(trait_item body: (_ (_ name: (identifier) @name parameters: (_) body: (_)) @def.method))
(trait_item body: (_ (_ name: (identifier) @name parameters: (_) !body) @def.method))
; An associated function without a `self` parameter (`fn stdout() -> Self`): `x.stdout()` cannot
; call it, only a path through its type (`OutputType::stdout()`).
(impl_item body: (_ (_ name: (identifier) parameters: (parameters) @_params) @flag.assoc (#not-match? @_params "^[(]\\s*(&\\s*('[A-Za-z_][A-Za-z0-9_]*\\s+)?)?(mut\\s+)?self\\b")))
(trait_item body: (_ (_ name: (identifier) parameters: (parameters) @_params) @flag.assoc (#not-match? @_params "^[(]\\s*(&\\s*('[A-Za-z_][A-Za-z0-9_]*\\s+)?)?(mut\\s+)?self\\b")))
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function

(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.union
(enum_item name: (type_identifier) @name) @def.enum
(enum_variant name: (identifier) @name) @def.enum_member
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type_alias
(associated_type name: (type_identifier) @name) @def.type_alias
(mod_item name: (identifier) @name) @def.module
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.static
(macro_definition name: (identifier) @name) @def.macro
(field_declaration_list (field_declaration name: (field_identifier) @name) @def.field)

; A field's declared type when it is a plain path (a generic one, `Box<T>`, derefs to another).
(field_declaration type: [(type_identifier) (scoped_type_identifier)] @type) @type.of
