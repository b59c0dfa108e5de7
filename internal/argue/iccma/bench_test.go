package iccma_test

import (
	"bytes"
	"fmt"
	"strings"
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

// BenchmarkParseLarge reads the inputs where how attacks are held shows: 2
// million distinct attacks (500,000 arguments), and 2 million lines that
// repeat 1,000 attacks, whose memory should follow the 1,000.
func BenchmarkParseLarge(b *testing.B) {
	var large bytes.Buffer
	if err := iccma.Write(&large, randaf.ER(500_000, 4, 1), iccma.I23); err != nil {
		b.Fatal(err)
	}
	var lines strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&lines, "%d %d\n", i+1, (i*7)%1000+1)
	}
	repeated := "p af 1000\n" + strings.Repeat(lines.String(), 2000)
	for _, c := range []struct {
		name  string
		input []byte
	}{{"distinct", large.Bytes()}, {"repeated", []byte(repeated)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.input)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := iccma.Parse(bytes.NewReader(c.input), iccma.I23); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
