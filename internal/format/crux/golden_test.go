package crux_test

import (
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/format/formattest"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	formattest.Golden(t, filepath.Join("testdata", name), got)
}
