; #include: the path as written, without quotes or angle brackets.
(preproc_include path: (_) @import.source) @import
