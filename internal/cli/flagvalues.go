package cli

import (
	"strings"

	"github.com/spf13/pflag"
)

// nameVar defines a flag whose value is one of a set of lower-case names
// (a format, a status): read in any case ('--format Council'), as
// --provider, --framework and --as are, rather than refused as unknown
// while the error lists the very name typed.
func nameVar(fl *pflag.FlagSet, p *string, name, value, usage string) {
	*p = value
	fl.Var((*nameValue)(p), name, usage)
}

type nameValue string

func (v *nameValue) Set(s string) error {
	*v = nameValue(strings.ToLower(strings.TrimSpace(s)))
	return nil
}

func (v *nameValue) String() string { return string(*v) }

// Type is the value's kind as the help shows it where the usage names
// none.
func (v *nameValue) Type() string { return "string" }
