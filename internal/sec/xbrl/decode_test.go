package xbrl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeTagSeeds are tag objects at the edges of what encoding/json accepts.
var decodeTagSeeds = []string{
	`{}`,
	`{"label":"Revenues","description":"x","units":{"USD":[{"start":"2024-01-01","end":"2024-12-31","val":12,"accn":"0000000001-25-000001","fy":2024,"fp":"FY","form":"10-K","filed":"2025-02-01","frame":"CY2024"}]}}`,
	` { "units" : { "USD" : [ { "end" : "2024-12-31" , "val" : -1.5e3 } ] } } `,
	`{"units":null}`,
	`{"units":{"USD":null}}`,
	`{"units":{"USD":[]}}`,
	`{"units":{"USD":[null,{"val":1}]}}`,
	`{"UNITS":{"usd":[{"VAL":1,"End":"2020-01-01","ſtart":"2019-01-01"}]}}`,
	`{"un\u0069ts":{"U\u0053D":[{"v\u0061l":2}]}}`,
	`{"units":{"USD":[{"val":-0}]}}`,
	`{"units":{"USD":[{"val":123456789012345678901234567890}]}}`,
	`{"units":{"USD":[{"val":0.1},{"val":1E-2},{"val":100000000000000}]}}`,
	`{"units":{"USD":[{"val":"1"}]}}`,
	`{"units":{"USD":[{"val":1e400}]}}`,
	`{"units":{"USD":[{"val":01}]}}`,
	`{"units":{"USD":[{"val":1.}]}}`,
	`{"units":{"USD":[{"val":-}]}}`,
	`{"units":{"USD":[{"val":true}]}}`,
	`{"units":{"USD":[{"val":[1]}]}}`,
	`{"units":{"USD":[{"accn":null}]}}`,
	`{"units":{"USD":[{"form":null,"accn":"0000000001-25-000001"}]}}`,
	`{"units":{"USD":[{"form":"10-K\u00e9"}]}}`,
	`{"units":{"USD":[{"form":"DEF 14A"}]}}`,
	`{"units":{"USD":[{"end":20240101}]}}`,
	`{"units":{"USD":[{"end":"2024-02-30"}]}}`,
	`{"units":{"USD":[{"end":null,"start":null,"filed":null}]}}`,
	`{"units":{"a":[],"a":[{"val":3}]}}`,
	`{"units":{"a":[{"val":3}]},"units":{"b":[]}}`,
	`{"units":{"a":[{"val":3}]},"units":null}`,
	`{"units":{"a":[1]}}`,
	`{"units":[]}`,
	`{"units":{"USD":{}}}`,
	`{"label":[[[[{"a":[true,false,null]}]]]]}`,
	`{"label":tru}`,
	`{"label":nul}`,
	`{"label":"a` + "\x01" + `b"}`,
	`{"label":"a\qb"}`,
	`{"label":"a\u12"}`,
	"{\"units\":{\"\xff\":[{\"val\":1}]}}",
	`{"units":{"USD":[{"val":1}`,
	`{"units":{"USD":[{"val":1},]}}`,
	`{"units":{"USD":[{"val":1}]},}`,
	`{"units":{"USD":[{"val" 1}]}}`,
	`{"units":{"USD":[{"val":1 "end":"2024-01-01"}]}}`,
	`{} x`,
	`{}}`,
	`[]`,
	``,
}

// referenceTag is how the tag was decoded before decodeTag: encoding/json
// into the fields used.
type referenceTag struct {
	Units map[string][]rawFact `json:"units"`
}

// checkDecodeTag fails if decodeTag and encoding/json disagree on data:
// one accepts what the other rejects, or they decode different facts.
func checkDecodeTag(t *testing.T, data []byte) {
	t.Helper()
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] != '{' {
		// The outline rejects a tag that is not an object before
		// decodeTag sees it (TestParseMalformed).
		return
	}
	var want referenceTag
	wantErr := json.Unmarshal(data, &want)
	got, err := decodeTag(&reader{data: data})
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("decodeTag(%q): err = %v, encoding/json: %v", data, err, wantErr)
	}
	if err != nil {
		return
	}
	normalise := func(m map[string][]rawFact) map[string][]rawFact {
		for k, v := range m {
			if len(v) == 0 {
				m[k] = nil
			}
		}
		return m
	}
	if !reflect.DeepEqual(normalise(got), normalise(want.Units)) {
		t.Fatalf("decodeTag(%q) = %+v, encoding/json: %+v", data, got, want.Units)
	}
}

// TestDecodeTagMatchesEncodingJSON pins decodeTag to the decoder it
// replaced, on edge cases and on every tag of the real documents.
func TestDecodeTagMatchesEncodingJSON(t *testing.T) {
	for _, s := range decodeTagSeeds {
		checkDecodeTag(t, []byte(s))
	}
	for _, ticker := range []string{"NVDA", "AAPL", "GOOGL"} {
		cf := fixture(t, ticker)
		n := 0
		for _, tags := range cf.taxonomies {
			for _, lt := range tags {
				if lt.raw != nil { // not yet decoded by Parse
					checkDecodeTag(t, lt.raw)
					n++
				}
			}
		}
		if n < 100 {
			t.Errorf("%s: only %d tags left undecoded by Parse, want the hundreds a 10-K filer reports", ticker, n)
		}
	}
}

func FuzzDecodeTag(f *testing.F) {
	for _, s := range decodeTagSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecodeTag)
}

// TestParseTruncated cuts NVIDIA's document at points across it: each must
// fail at Parse, saying the document is truncated.
func TestParseTruncated(t *testing.T) {
	data := fixtureBytes(t, "NVDA")
	for _, n := range []int{1, 100, len(data) / 10, len(data) / 2, len(data) - 100, len(data) - 3, len(data) - 1} {
		_, err := ParseBytes(data[:n])
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("ParseBytes(first %d of %d bytes): err = %v, want a truncated document", n, len(data), err)
		}
	}
}

// TestParseMalformed checks that a damaged document is reported with what
// is wrong and where: at Parse for the outline and the tags Parse reads,
// and by the call that reads any other tag.
func TestParseMalformed(t *testing.T) {
	revenue := `"Revenues":{"units":{"USD":[{"start":"2023-01-01","end":"2023-12-31","val":5,"accn":"0000000001-24-000001","form":"10-K","filed":"2024-02-01"}]}}`
	wrap := func(tags string) string { return `{"cik":1,"entityName":"X","facts":{"us-gaap":{` + tags + `}}}` }
	for _, tt := range []struct{ name, in string }{
		{"facts not an object", `{"cik":1,"facts":[]}`},
		{"tag not an object", wrap(`"Revenues":"a lot"`)},
		{"val a string", wrap(`"Revenues":{"units":{"USD":[{"end":"2023-12-31","start":"2023-01-01","val":"5","form":"10-K"}]}}`)},
		{"end a number", wrap(`"Revenues":{"units":{"USD":[{"end":20231231,"val":5}]}}`)},
		{"units an array", wrap(`"Revenues":{"units":[]}`)},
		{"fact not an object", wrap(`"Revenues":{"units":{"USD":["5"]}}`)},
		{"missing colon", wrap(`"Revenues":{"units":{"USD":[{"val" 5}]}}`)},
		{"unbalanced", wrap(`"Revenues":{"units":{"USD":[{"val":5}}}`)},
		{"data after the document", wrap(revenue) + `{}`},
	} {
		_, err := ParseBytes([]byte(tt.in))
		if err == nil {
			t.Errorf("%s: Parse succeeded", tt.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "byte") {
			t.Errorf("%s: err = %v, want the byte it found wrong", tt.name, err)
		}
	}
	for _, tt := range []struct{ name, in, want string }{
		{"val a string", wrap(`"Revenues":{"units":{"USD":[{"val":"5"}]}}`), `us-gaap:Revenues: units.USD[0]: val: at byte 81: want a number, found a string`},
		{"end a number", wrap(`"Revenues":{"units":{"USD":[{"val":5},{"end":20231231}]}}`), `units.USD[1]: end (at byte 91): xbrl: date 20231231 is not a JSON string`},
		{"units an array", wrap(`"Revenues":{"units":[]}`), `units: at byte 66: want an object of unit names to arrays of facts, found an array`},
		{"tag not an object", wrap(`"Revenues":"a lot"`), `us-gaap:Revenues is a string, not an object`},
	} {
		_, err := ParseBytes([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}

	// Parse reads only the duration concepts' tags (for the fiscal year
	// end): damage elsewhere is reported by the call that reads the tag.
	cf, err := ParseBytes([]byte(wrap(revenue + `,"Assets":{"units":{"USD":[{"end":"2023-12-31","val":5 "accn":"x"}]}}`)))
	if err != nil {
		t.Fatalf("Parse with a damaged tag it does not read: %v", err)
	}
	if s, err := cf.Series(Revenue); err != nil || len(s.Facts()) != 1 {
		t.Errorf("Series(Revenue) = %v, %v; want the one fact", s, err)
	}
	_, err = cf.Series(TotalAssets)
	if err == nil || !strings.Contains(err.Error(), "us-gaap:Assets") || !strings.Contains(err.Error(), "want ',' or '}' after an object member, found a string") {
		t.Errorf("Series(TotalAssets) err = %v, want the damaged tag and what is wrong", err)
	}
	if got := cf.Reported(TaxonomyUSGAAP, "Assets", "USD"); len(got) != 0 {
		t.Errorf("Reported from a damaged tag = %v, want none", got)
	}
}

// TestSkipOutline checks the outline's bracket matching on strings that
// hold brackets, quotes and backslashes.
func TestSkipOutline(t *testing.T) {
	for _, tt := range []struct {
		in   string
		end  int // -1: error
		want string
	}{
		{`{"a":"}"} tail`, 9, ""},
		{`{"a":"\"}"} tail`, 11, ""},
		{`{"a":"\\"} tail`, 10, ""},
		{`[{"a":["]",{}]}] tail`, 16, ""},
		{`{"a":"\\\"}"} tail`, 13, ""},
		{`{"a":[}`, -1, `unbalanced '}'`},
		{`{"a":"x`, -1, "truncated"},
		{`{"a":{}`, -1, "truncated"},
		{`{"a":"\`, -1, "truncated"},
	} {
		r := &reader{data: []byte(tt.in)}
		err := r.skipOutline()
		switch {
		case tt.end >= 0 && (err != nil || r.pos != tt.end):
			t.Errorf("skipOutline(%q) = pos %d, %v; want pos %d", tt.in, r.pos, err, tt.end)
		case tt.end < 0 && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("skipOutline(%q) err = %v, want %q", tt.in, err, tt.want)
		}
		if tt.end >= 0 && !json.Valid(bytes.TrimSpace([]byte(tt.in[:tt.end]))) {
			t.Errorf("test case %q: %q is not valid JSON", tt.in, tt.in[:tt.end])
		}
	}
}
