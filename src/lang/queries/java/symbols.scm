; Java definitions. Capture conventions: see src/lang/extract.ts. Earlier patterns win.

(package_declaration [(identifier) (scoped_identifier)] @name) @def.namespace

(class_declaration (modifiers "abstract") name: (identifier) @name) @def.abstract_class
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(enum_constant name: (identifier) @name) @def.enum_member

(method_declaration (modifiers "abstract") name: (identifier) @name) @def.method @flag.abstract
(method_declaration name: (identifier) @name) @def.method
; A static method hides a superclass's of its name and signature, it does not override it: a
; call is bound by the type written (JLS 8.4.8), so no dispatch reaches it through a base.
(method_declaration (modifiers "static")) @flag.static
(annotation_type_element_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(compact_constructor_declaration name: (identifier) @name) @def.constructor

(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant

; What a type extends and implements (resolution finds inherited members through it).
(class_declaration superclass: (superclass (_) @base)) @base.of
(class_declaration interfaces: (super_interfaces (type_list (_) @base))) @base.of
(enum_declaration interfaces: (super_interfaces (type_list (_) @base))) @base.of
(record_declaration interfaces: (super_interfaces (type_list (_) @base))) @base.of
(interface_declaration (extends_interfaces (type_list (_) @base))) @base.of
; The methods of an anonymous class (`new AbstractModule() { void configure() { bind(..); } }`)
; are no type's members here: each carries the anonymous class's supertype instead.
(object_creation_expression type: (_) @base (class_body (method_declaration) @base.of))

; A field's declared type (resolution follows `binder.bind()`, `this.binder.bind()` through it).
(field_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)] @type) @type.of
; A method's declared return type: what a chain's next call is made on (`Option.builder("a").hasArg()`).
(method_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)] @type) @type.of
