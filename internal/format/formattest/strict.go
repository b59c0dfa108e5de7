package formattest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/strictschema"
)

// StrictSchemas holds every structured-output schema of the format package
// in the working directory (a test's package) to OpenAI's strict mode, for
// its models and for fine-tuned ones, and to Anthropic's structured
// outputs (see package strictschema): the OpenAI provider sends each as a
// json_schema response format with strict true, and one strict mode
// refuses costs every call a refused request and a retry without the
// provider's guarantee; the Anthropic provider sends each as
// output_config.format, and one the API refuses fails the call.
//
// schemas maps the name of each function of the package that takes no
// argument and returns *llm.Schema to what it returns. The package's
// source is read for those functions, so a schema added without a
// place here fails the test rather than going unchecked.
func StrictSchemas(t *testing.T, schemas map[string]*llm.Schema) {
	t.Helper()
	for _, name := range schemaFuncs(t) {
		if _, ok := schemas[name]; !ok {
			t.Errorf("%s returns a schema the test does not check: add it to the map passed to StrictSchemas", name)
		}
	}
	for fn, s := range schemas {
		for _, fineTuned := range []bool{false, true} {
			why, err := strictschema.Check(s.JSON, fineTuned)
			if err != nil {
				t.Errorf("%s (%s): %v", fn, s.Name, err)
				continue
			}
			if why != "" {
				model := "OpenAI"
				if fineTuned {
					model = "a fine-tuned OpenAI model"
				}
				t.Errorf("%s: strict mode of %s refuses schema %q: %s", fn, model, s.Name, why)
			}
		}
		why, err := strictschema.CheckAnthropic(s.JSON)
		if err != nil {
			t.Errorf("%s (%s): %v", fn, s.Name, err)
		} else if why != "" {
			t.Errorf("%s: Anthropic's structured outputs refuse schema %q: %s", fn, s.Name, why)
		}
	}
}

// schemaFuncs names the functions of the package in the working directory
// (its non-test Go files) that take no argument and return *llm.Schema.
func schemaFuncs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatalf("read the package's source: %v", err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("read the package's source: %v", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.Params.NumFields() != 0 || fd.Type.Results.NumFields() != 1 {
				continue
			}
			star, ok := fd.Type.Results.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Schema" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "llm" {
					out = append(out, fd.Name.Name)
				}
			}
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		t.Fatal("the package has no function returning *llm.Schema: is the test in a format's package?")
	}
	return out
}
