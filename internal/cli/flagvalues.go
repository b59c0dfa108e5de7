package cli

import (
	"errors"
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

// nonBlankVar defines a string flag that refuses a blank value. The code
// that fills in defaults reads "" as a flag not given, so '--model ""' (or
// '--model "$MODEL"' with MODEL unset) would run the debate with the very
// default the user meant to replace, and say nothing.
func nonBlankVar(fl *pflag.FlagSet, p *string, name, usage string) {
	fl.Var((*nonBlankValue)(p), name, usage)
}

// nonBlankVarP is nonBlankVar with a one-letter shorthand.
func nonBlankVarP(fl *pflag.FlagSet, p *string, name, short, usage string) {
	fl.VarP((*nonBlankValue)(p), name, short, usage)
}

type nonBlankValue string

// errBlankValue is a non-blank flag given an empty or all-space value;
// flagValueError words it with the flag's name.
var errBlankValue = errors.New("the value is blank")

func (v *nonBlankValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errBlankValue
	}
	*v = nonBlankValue(s)
	return nil
}

func (v *nonBlankValue) String() string { return string(*v) }

func (v *nonBlankValue) Type() string { return "string" }
