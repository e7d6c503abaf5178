; JavaScript-only patterns, after ecmascript.scm.

(class_heritage [(identifier) (member_expression)] @reference.base)
