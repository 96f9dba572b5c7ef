; Rust definitions. Capture conventions: see src/lang/extract.ts.
; An impl block is a symbol of kind "impl" named after its type (`Foo`), or `<Foo as Trait>` for a
; trait impl, so methods of different impls have different scopes. Earlier patterns win.

(impl_item
  trait: (_) @trait
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  ]) @def.impl
(impl_item trait: (_) @trait type: (_) @name) @def.impl
(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  ]) @def.impl
(impl_item type: (_) @name) @def.impl

(impl_item body: (declaration_list (function_item name: (identifier) @name) @def.method))
(trait_item body: (declaration_list (function_item name: (identifier) @name) @def.method))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @def.method))
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
