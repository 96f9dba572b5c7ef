; Java imports: `import a.b.C;` -> source a.b, name C; `import a.b.*;` -> source a.b, name *;
; static imports alike (`import static a.B.m;` -> source a.B, name m).

(import_declaration (scoped_identifier scope: (_) @import.source name: (identifier) @import.name) .) @import
(import_declaration (scoped_identifier) @import.source (asterisk) @import.wildcard) @import
(import_declaration (identifier) @import.source (asterisk) @import.wildcard) @import
