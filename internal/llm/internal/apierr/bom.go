package apierr

import (
	"bufio"
	"bytes"
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
