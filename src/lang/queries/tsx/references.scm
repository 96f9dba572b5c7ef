; inherits: typescript
; TSX references: the TypeScript ones plus JSX components. The strongest kind wins per name
; (src/lang/extract.ts KIND_RANK), so the order of these patterns after the parent's does not matter.

; JSX components (TSX): <Foo/>, <Foo.Bar>
(jsx_opening_element name: [(identifier) @ref.call (_ object: (_) @qualifier property: (property_identifier) @ref.call)])
(jsx_self_closing_element name: [(identifier) @ref.call (_ object: (_) @qualifier property: (property_identifier) @ref.call)])
(jsx_closing_element name: (_) @ref.ignore)
(jsx_closing_element name: (_ property: (property_identifier) @ref.ignore))
(jsx_attribute (property_identifier) @ref.ignore)
