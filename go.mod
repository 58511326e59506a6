module github.com/lockaudit/lockaudit

go 1.26.0

require (
	github.com/felixge/fgprof v0.9.5
	github.com/golangci/plugin-module-register v0.1.2
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
