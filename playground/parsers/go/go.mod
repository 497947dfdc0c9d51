module httpspan.invalid/playground/goparse

go 1.19
