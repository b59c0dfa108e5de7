package cli

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the default database (sqlite.DefaultPath, which reads the
// process's environment, not the Factory's) and the user's directories at a
// temporary directory: a test that passes no --db must neither create nor
// read the machine's own database, as they did.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "parley-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, k := range []string{"HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"} {
		os.Setenv(k, dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
