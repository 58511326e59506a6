package driver

import "strings"

// IsVetToolInvocation reports whether the command line is the go command
// driving this binary as a vet tool (go vet -vettool=lockaudit, go fix
// -fixtool=lockaudit, or Run's own child go vet): the binary should then
// call unitchecker.Main. The protocol has three forms:
//
//	lockaudit -V=full             describe the executable (for the build cache)
//	lockaudit -flags              describe the analyzer flags as JSON
//	lockaudit [flags] x/vet.cfg   analyse one package described by a config file
//
// None of them can be confused with a check command line: check has no -V or
// -flags flag, and a package pattern never ends in ".cfg".
func IsVetToolInvocation(args []string) bool {
	for _, a := range args {
		switch a {
		case "-flags", "--flags", "-V=full", "--V=full":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
