package formattest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports this package;
// a flag may be registered only once per binary, so the format packages do
// not define their own.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden compares got with the golden file at path, or rewrites the file when
// the test runs with -update.
//
// The token and cost table's rows are kept out of the comparison (its
// heading stays): which of several concurrent turns writes the simulated
// prompt cache first, and so which agent reads it, varies from run to run.
// The table itself is tested in package report.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	got = stripUsageRows(got)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// stripUsageRows removes the body of a "## Tokens and cost" section.
func stripUsageRows(doc string) string {
	const h = "\n## Tokens and cost\n"
	i := strings.Index(doc, h)
	if i < 0 {
		return doc
	}
	rest := doc[i+len(h):]
	end := strings.Index(rest, "\n## ")
	if end < 0 {
		return doc[:i+len(h)] + "\n(per-agent rows left out of the golden file)\n"
	}
	return doc[:i+len(h)] + "\n(per-agent rows left out of the golden file)\n" + rest[end:]
}
