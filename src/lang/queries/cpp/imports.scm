; #include: the path as written, without quotes or angle brackets.
(preproc_include path: (_) @import.source) @import

; `using namespace std;` brings every name of the namespace; `using std::string;` one.
(using_declaration "namespace" (_) @import.source @import.wildcard) @import
(using_declaration (qualified_identifier scope: (_) @import.source name: (identifier) @import.name)) @import
