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
(annotation_type_element_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(compact_constructor_declaration name: (identifier) @name) @def.constructor

(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant
