package apierr

import (
	"bufio"
	"bytes"
	"io"
)

// bom is the UTF-8 byte order mark, which servers and proxies built on
// .NET (Encoding.UTF8 writes one) and some Windows gateways put before a
// body. The SSE spec has a decoder ignore one at the start of a stream;
// the SDKs' decoders do not, and read the first line as a field named
// "\uFEFFdata", dropping the first event, and a JSON body with one does
// not parse.
var bom = []byte{0xEF, 0xBB, 0xBF}

// SkipBOM discards a byte order mark at the start of br. It waits for at
// most the first three bytes, which a stream's first event or a JSON body
// holds anyway.
func SkipBOM(br *bufio.Reader) {
	if b, err := br.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
		_, _ = br.Discard(len(bom))
	}
}

// TrimBOM returns body without a byte order mark at its start.
func TrimBOM(body []byte) []byte { return bytes.TrimPrefix(body, bom) }

// LineEnds returns r with every line ending made "\n". The SSE spec lets a
// server end lines with "\r\n", "\n" or a lone "\r"; the SDKs' decoders
// split at "\n" only, so a stream of lone "\r"s would be one line, read
// whole before anything is passed on, and then fail to parse. A carriage
// return is never inside an event's data, whose JSON escapes it, nor
// inside a JSON body but as white space, where a newline means the same.
func LineEnds(r io.Reader) io.Reader { return &lineEnds{r: r} }

type lineEnds struct {
	r  io.Reader
	cr bool // the last byte read was "\r", made "\n": a "\n" next is its pair
}

func (l *lineEnds) Read(p []byte) (int, error) {
	for {
		n, err := l.r.Read(p)
		out := 0
		for _, b := range p[:n] {
			if b == '\n' && l.cr {
				l.cr = false
				continue
			}
			l.cr = b == '\r'
			if l.cr {
				b = '\n'
			}
			p[out] = b
			out++
		}
		// A read that was all the second half of "\r\n" pairs gives
		// nothing to pass on: read on rather than return 0, nil.
		if out > 0 || err != nil || n == 0 {
			return out, err
		}
	}
}

// FirstByte peeks at the first byte of br that is not white space, reading
// the white space before it.
func FirstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = br.ReadByte()
			continue
		}
		return b[0], nil
	}
}
