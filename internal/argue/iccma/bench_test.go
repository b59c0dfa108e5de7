package iccma_test

import (
	"bytes"
	"testing"

	"github.com/parleyhq/parley/internal/argue/iccma"
	"github.com/parleyhq/parley/internal/argue/randaf"
)

// BenchmarkParse reads a framework of 50,000 arguments and 150,000 attacks
// in each format: what a large instance costs before the solver starts.
func BenchmarkParse(b *testing.B) {
	af := randaf.ER(50_000, 3, 1)
	for _, f := range []iccma.Format{iccma.APX, iccma.TGF, iccma.I23} {
		var buf bytes.Buffer
		if err := iccma.Write(&buf, af, f); err != nil {
			b.Fatal(err)
		}
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := iccma.Parse(bytes.NewReader(buf.Bytes()), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
