module recall.example/bugs

go 1.26
