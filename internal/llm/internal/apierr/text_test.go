package apierr

import (
	"bufio"
	"strings"
	"testing"
)

// Only what has arrived is looked at: a stream's first line split across
// reads is not taken for text, nor held back waiting for more.
func TestNotEventStream(t *testing.T) {
	for in, want := range map[string]bool{
		"upstream request timeout": true,
		"Bad Gateway\n":            true,
		"upstream connect error or disconnect/reset before headers. reset reason: connection termination": true,
		"Internal Server Error: boom\n": true,
		"dat":                           false, // a field's name, cut by the read
		"data: {}\n\n":                  false,
		"event: message\n":              false,
		": keep-alive\n\n":              false,
		"\r\n\r\nretry: 100\n":          false,
		"error: {\"code\":500}\n":       false,
		"{\"choices\":[]}":              false,
		"<html>":                        false,
		"":                              false,
	} {
		br := bufio.NewReader(strings.NewReader(in))
		_, _ = br.Peek(1)
		if got := NotEventStream(br) != nil; got != want {
			t.Errorf("%q: text %v, want %v", in, got, want)
		}
	}
}
