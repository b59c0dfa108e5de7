package textcall

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

var offered = []llm.ToolSpec{{Name: "xbrl_facts"}, {Name: "web_search"}}

// run feeds s in pieces of n bytes (the whole of it for n 0) and returns
// all the text passed on, and what Finish made of the rest.
func run(s string, n int, bare, cut bool) (passed string, out Outcome, calls []llm.ToolCall, why string) {
	f := New(offered, bare)
	var b strings.Builder
	if n == 0 {
		n = len(s) + 1
	}
	for i := 0; i < len(s); i += n {
		b.WriteString(f.Feed(s[i:min(i+n, len(s))]))
	}
	out, text, calls, _, why := f.Finish(cut)
	if out != Calls {
		b.WriteString(text)
	}
	return b.String(), out, calls, why
}

func TestFilter(t *testing.T) {
	type call struct{ name, args string }
	cases := []struct {
		name   string
		in     string
		passed string
		out    Outcome
		calls  []call
	}{
		{"hermes", "<tool_call>\n{\"name\": \"xbrl_facts\", \"arguments\": {\"cik\": \"320193\"}}\n</tool_call>", "", Calls,
			[]call{{"xbrl_facts", `{"cik": "320193"}`}}},
		{"hermes, two, prose before", "Let me look.\n\n<tool_call>\n{\"name\": \"xbrl_facts\", \"arguments\": {\"cik\": \"1\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"x\"}}\n</tool_call>",
			"Let me look.\n\n", Calls, []call{{"xbrl_facts", `{"cik": "1"}`}, {"web_search", `{"q": "x"}`}}},
		{"hermes without its closing tag", "<tool_call>\n{\"name\": \"web_search\", \"arguments\": {}}", "", Calls, []call{{"web_search", `{}`}}},
		{"python tag, two", `<|python_tag|>{"name": "web_search", "parameters": {"q": "a"}}; {"name": "xbrl_facts", "parameters": {"cik": "2"}}<|eom_id|>`, "", Calls,
			[]call{{"web_search", `{"q": "a"}`}, {"xbrl_facts", `{"cik": "2"}`}}},
		{"bare llama", `{"type": "function", "name": "web_search", "parameters": {"q": "a"}}`, "", Calls, []call{{"web_search", `{"q": "a"}`}}},
		{"bare, arguments as a string", ` {"name": "web_search", "arguments": "{\"q\": \"a\"}"}`, "", Calls, []call{{"web_search", `{"q": "a"}`}}},
		{"bare array", `[{"name": "web_search", "arguments": {"q": "a"}}]`, "", Calls, []call{{"web_search", `{"q": "a"}`}}},
		{"mistral array", `[TOOL_CALLS][{"name": "xbrl_facts", "arguments": {"cik": "3"}}]`, "", Calls, []call{{"xbrl_facts", `{"cik": "3"}`}}},
		{"mistral v11", `[TOOL_CALLS]xbrl_facts[ARGS]{"cik": "3"}[TOOL_CALLS]web_search[CALL_ID]abc123XYZ[ARGS]{"q": "b"}`, "", Calls,
			[]call{{"xbrl_facts", `{"cik": "3"}`}, {"web_search", `{"q": "b"}`}}},
		{"llama function tag", `<function=web_search>{"q": "Apple revenue"}</function>`, "", Calls, []call{{"web_search", `{"q": "Apple revenue"}`}}},
		{"llama function tags, two, prose before, end token", "I will look.\n<function=xbrl_facts>{\"cik\": \"1\"}</function>\n<function=web_search>{\"q\": \"x\"}</function><|eom_id|>",
			"I will look.\n", Calls, []call{{"xbrl_facts", `{"cik": "1"}`}, {"web_search", `{"q": "x"}`}}},
		{"llama function tag without its closing tag", `<function=web_search>{"q": "a"}`, "", Calls, []call{{"web_search", `{"q": "a"}`}}},
		{"pythonic", `[web_search(q="Apple revenue"), xbrl_facts(cik='0000320193')]`, "", Calls,
			[]call{{"web_search", `{"q":"Apple revenue"}`}, {"xbrl_facts", `{"cik":"0000320193"}`}}},
		{"pythonic, every literal", "[web_search(q='it\\'s \"x\"\\n\\u00e9\\x41\\101\\d', n=3, f=-1.5e3, g=.5, big=123_456789012345678901234567890, h=0x_ff, o=0o17, b=0b101, " +
			"t=True, no=None, l=[1, 'a', [False],], d={'k': {\"n\": None}, \"<&>\": 2}, r=r'\\d+\\'', tq=\"\"\"two\nlines\"\"\", j='a' \"b\",)]", "", Calls,
			[]call{{"web_search", `{"q":"it's \"x\"\néAA\\d","n":3,"f":-1500,"g":0.5,"big":123456789012345678901234567890,"h":255,"o":15,"b":5,` +
				`"t":true,"no":null,"l":[1,"a",[false]],"d":{"k":{"n":null},"<&>":2},"r":"\\d+\\'","tq":"two\nlines","j":"ab"}`}}},
		{"pythonic, no arguments, end token", " [web_search()]<|eot_id|>", "", Calls, []call{{"web_search", `{}`}}},
		{"llama 4 pythonic", `Looking it up. <|python_start|>[web_search(q="a"), xbrl_facts(cik="1")]<|python_end|><|eom|>`, "Looking it up. ", Calls,
			[]call{{"web_search", `{"q":"a"}`}, {"xbrl_facts", `{"cik":"1"}`}}},
		{"fenced json", "```json\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"a\"}}\n```", "", Calls, []call{{"web_search", `{"q": "a"}`}}},
		{"fenced tool_call", "```tool_call\n{\"name\": \"xbrl_facts\", \"arguments\": {\"cik\": \"1\"}}\n```\n", "", Calls, []call{{"xbrl_facts", `{"cik": "1"}`}}},
		{"fenced array, no tag", "```\n[{\"name\": \"xbrl_facts\", \"arguments\": {\"cik\": \"```\"}}, {\"name\": \"web_search\", \"parameters\": {}}]\n```", "", Calls,
			[]call{{"xbrl_facts", `{"cik": "` + "```" + `"}`}, {"web_search", `{}`}}},
		{"fence not closed", "```json\n{\"name\": \"web_search\", \"arguments\": {}}", "", Calls, []call{{"web_search", `{}`}}},

		// Meant as calls, not readable exactly.
		{"llama function tag, arguments not an object", `<function=web_search>"Apple"</function>`, "", Garbled, nil},
		{"llama function tag, prose after", `<function=web_search>{"q": "a"}</function> Now I answer.`, "", Garbled, nil},
		{"llama function tag, cut short", `<function=web_search>{"q": `, "", Garbled, nil},
		{"pythonic, positional", `[web_search("Apple")]`, "", Garbled, nil},
		{"pythonic, expression", `[web_search(q=1+2)]`, "", Garbled, nil},
		{"pythonic, a name", `[web_search(q=query)]`, "", Garbled, nil},
		{"pythonic, lower-case true", `[web_search(q=true)]`, "", Garbled, nil},
		{"pythonic, tuple", `[web_search(q=(1, 2))]`, "", Garbled, nil},
		{"pythonic, set", `[web_search(q={1, 2})]`, "", Garbled, nil},
		{"pythonic, f-string", `[web_search(q=f"x{y}")]`, "", Garbled, nil},
		{"pythonic, leading zero", `[web_search(n=012)]`, "", Garbled, nil},
		{"pythonic, complex", `[web_search(n=1j)]`, "", Garbled, nil},
		{"pythonic, repeated", `[web_search(q="a", q="b")]`, "", Garbled, nil},
		{"pythonic, not offered after one", `[web_search(q="a"), delete_all()]`, "", Garbled, nil},
		{"pythonic, cut short", `[web_search(q="Apple rev`, "", Garbled, nil},
		{"pythonic, prose after", `[web_search(q="a")] Then I answer.`, "", Garbled, nil},
		{"llama 4 pythonic, positional", `<|python_start|>[web_search("a")] and so on`, "", Garbled, nil},
		{"fenced, extra field", "```json\n{\"name\": \"web_search\", \"arguments\": {}, \"why\": \"x\"}\n```", "", Garbled, nil},
		{"hermes, arguments not an object", `<tool_call>{"name": "web_search", "arguments": 3}</tool_call>`, "", Garbled, nil},
		{"hermes, prose after", "<tool_call>{\"name\": \"web_search\", \"arguments\": {}}</tool_call>\nThe result is 4.", "", Garbled, nil},
		{"bare, prose after", `{"name": "web_search", "arguments": {"q": "a"}} and then I will answer.`, "", Garbled, nil},
		{"bare, extra field", `{"name": "web_search", "arguments": {"q": "a"}, "reason": "x"}`, "", Garbled, nil},
		{"python tag, cut short", `<|python_tag|>{"name": "web_search", "parameters": {"q": `, "", Garbled, nil},
		{"mistral v11, bad arguments", `[TOOL_CALLS]web_search[ARGS]{"q": `, "", Garbled, nil},

		// Answers, passed unchanged.
		{"prose quoting JSON", `The tool returns {"name": "web_search", "arguments": {}} as its call.`, `The tool returns {"name": "web_search", "arguments": {}} as its call.`, Text, nil},
		{"prose naming the tag", "Hermes models wrap calls in <tool_call> tags; xbrl_facts is one tool.", "Hermes models wrap calls in <tool_call> tags; xbrl_facts is one tool.", Text, nil},
		{"prose naming the Mistral tag", "Mistral writes [TOOL_CALLS] before its calls.", "Mistral writes [TOOL_CALLS] before its calls.", Text, nil},
		{"JSON answer", `{"verdict": "pro", "name": "Apple"}`, `{"verdict": "pro", "name": "Apple"}`, Text, nil},
		{"object naming no offered tool", `{"name": "delete_all", "arguments": {}}`, `{"name": "delete_all", "arguments": {}}`, Text, nil},
		{"list answer", "[1] Revenue rose 4%.", "[1] Revenue rose 4%.", Text, nil},
		{"citation, then a quoted call", `[1] SEC: {"name": "xbrl_facts", "arguments": {}} is the call.`, `[1] SEC: {"name": "xbrl_facts", "arguments": {}} is the call.`, Text, nil},
		{"JSON answer cut short", `{"summary": "the \"name\": \"xbrl_facts\" field`, `{"summary": "the \"name\": \"xbrl_facts\" field`, Text, nil},
		{"prose quoting a wrapped call", `Hermes models write <tool_call> and then {"name": "web_search", "arguments": {}} on a line.`,
			`Hermes models write <tool_call> and then {"name": "web_search", "arguments": {}} on a line.`, Text, nil},
		{"a tag's start at the end", "It ends with <tool_", "It ends with <tool_", Text, nil},
		{"prose naming the function tag", "Llama 3.1 writes <function= tags for custom tools like web_search.", "Llama 3.1 writes <function= tags for custom tools like web_search.", Text, nil},
		{"function tag of no offered tool", `<function=delete_all>{}</function>`, `<function=delete_all>{}</function>`, Text, nil},
		{"link to a tool's page", "[web_search](https://example.com/tools) finds pages.", "[web_search](https://example.com/tools) finds pages.", Text, nil},
		{"bracketed note", "[Note: web_search(q) was not needed.]", "[Note: web_search(q) was not needed.]", Text, nil},
		{"prose starting as a pythonic call", "[web_search(q) is how the tool is called] and so on.", "[web_search(q) is how the tool is called] and so on.", Text, nil},
		{"pythonic of no offered tool", `[delete_all(q="a")]`, `[delete_all(q="a")]`, Text, nil},
		{"prose naming Llama 4's tag", "Llama 4 opens calls with <|python_start|> and closes them.", "Llama 4 opens calls with <|python_start|> and closes them.", Text, nil},
		{"fence then prose", "```json\n{\"name\": \"web_search\", \"arguments\": {}}\n```\nThat is how the tool is called.",
			"```json\n{\"name\": \"web_search\", \"arguments\": {}}\n```\nThat is how the tool is called.", Text, nil},
		{"prose then fence", "The call looks like this:\n```json\n{\"name\": \"web_search\", \"arguments\": {}}\n```",
			"The call looks like this:\n```json\n{\"name\": \"web_search\", \"arguments\": {}}\n```", Text, nil},
		{"fenced JSON answer", "```json\n{\"verdict\": \"pro\"}\n```", "```json\n{\"verdict\": \"pro\"}\n```", Text, nil},
		{"fenced code", "```python\nprint(web_search(q=1))\n```", "```python\nprint(web_search(q=1))\n```", Text, nil},
		{"fenced prose", "```\nweb_search is a tool\n```", "```\nweb_search is a tool\n```", Text, nil},
		{"white space", "  \n", "  \n", Text, nil},
		{"white space before a JSON answer", " \n{\"verdict\": \"pro\"}", " \n{\"verdict\": \"pro\"}", Text, nil},
		{"white space before a fence of code", "\n```\nx = 1\n```", "\n```\nx = 1\n```", Text, nil},
	}
	for _, c := range cases {
		for _, n := range []int{0, 1, 3, 7} {
			passed, out, calls, why := run(c.in, n, true, false)
			if passed != c.passed || out != c.out || len(calls) != len(c.calls) {
				t.Errorf("%s, pieces of %d: passed %q, outcome %d (%s), %d calls; want %q, %d, %d calls", c.name, n, passed, out, why, len(calls), c.passed, c.out, len(c.calls))
				continue
			}
			for i, want := range c.calls {
				if calls[i].Name != want.name || string(calls[i].Args) != want.args {
					t.Errorf("%s, pieces of %d: call %d is %s %s, want %s %s", c.name, n, i, calls[i].Name, calls[i].Args, want.name, want.args)
				}
			}
		}
	}
}

// A lone object is the answer when a JSON document was asked for, and
// a request without tools has nothing held back.
func TestNotLookedAt(t *testing.T) {
	in := `{"name": "web_search", "arguments": {"q": "a"}}`
	if passed, out, _, _ := run(in, 1, false, false); passed != in || out != Text {
		t.Errorf("with a schema: %q %d", passed, out)
	}
	for _, in := range []string{"```json\n" + in + "\n```", "```\n" + in + "\n```", `[web_search(q="a")]`} {
		if passed, out, _, _ := run(in, 1, false, false); passed != in || out != Text {
			t.Errorf("%q with a schema: %q %d", in, passed, out)
		}
	}
	// A tool_call fence says what it is, schema or not.
	if _, out, calls, why := run("```tool_call\n"+in+"\n```", 3, false, false); out != Calls || len(calls) != 1 {
		t.Errorf("a tool_call fence with a schema: %d %v (%s)", out, calls, why)
	}
	f := New(nil, true)
	if got := f.Feed("<tool_call>" + in); got != "<tool_call>"+in {
		t.Errorf("without tools: %q", got)
	}
}

// A call cut at the token limit is dropped, as a native one is.
func TestCut(t *testing.T) {
	if passed, out, _, _ := run(`<tool_call>{"name": "web_search", "arguments": {"q": `, 2, true, true); passed != "" || out != Text {
		t.Errorf("%q %d", passed, out)
	}
}

func TestGarbledErrorSaysTheFix(t *testing.T) {
	msg := GarbledError("qwen2.5", hermesOpen, "text after the tool call").Error()
	for _, want := range []string{`"qwen2.5"`, "<tool_call>", "--jinja", "--tool-call-parser hermes", "Ollama", "LM Studio"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}

// Held text is bounded: past MaxHeld it is passed on.
func TestMaxHeld(t *testing.T) {
	f := New(offered, true)
	var n int
	n += len(f.Feed("{\"a\": \""))
	n += len(f.Feed(strings.Repeat("x", MaxHeld)))
	if n == 0 {
		t.Fatal("nothing passed on past MaxHeld")
	}
	if out, text, _, _, _ := f.Finish(false); out != Text || text != "" {
		t.Errorf("%d %q", out, text)
	}
}

// A reply that starts with a citation is streamed at once, not held back
// as a possible array of calls.
func TestCitationIsStreamed(t *testing.T) {
	f := New(offered, true)
	if got := f.Feed("[") + f.Feed("1] Revenue"); got != "[1] Revenue" {
		t.Errorf("passed on %q", got)
	}
	// So are a link and a fence of code, as soon as they differ from a
	// call.
	for _, pieces := range [][]string{{"[web", "_search]", "(https://"}, {"``", "`py", "thon\n", "x = 1"}, {"```", "\n", "Revenue"}} {
		f := New(offered, true)
		got := ""
		for _, p := range pieces {
			got += f.Feed(p)
		}
		if want := strings.Join(pieces, ""); got != want {
			t.Errorf("passed on %q of %q", got, want)
		}
	}
}

// BenchmarkFeed measures what watching a streamed answer for a wrapper
// costs per delta, for a request with tools: a 200-word answer, a word a
// delta, as servers stream it.
func BenchmarkFeed(b *testing.B) {
	words := strings.Fields(strings.Repeat("Revenue rose [4%] <b>to</b> $383 billion. ", 25))
	b.ReportAllocs()
	for b.Loop() {
		f := New(offered, true)
		for _, w := range words {
			f.Feed(w + " ")
		}
		if out, _, _, _, _ := f.Finish(false); out != Text {
			b.Fatal(out)
		}
	}
}

// FuzzFilter holds the filter to what it promises whatever the text and
// however it is split: a reply that names no offered tool is passed on
// exactly as it came; whatever is passed on before a call is read is a
// prefix of the reply; calls name offered tools and have object
// arguments.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{
		`<function=web_search>{"q": "a"}</function>`, `[web_search(q="a", n=[1, {'k': None}])]`, "```json\n{\"name\": \"web_search\", \"arguments\": {}}\n```",
		`<tool_call>{"name": "xbrl_facts", "arguments": {}}</tool_call>`, `[TOOL_CALLS]web_search[ARGS]{}`, "[1] Revenue", "```python\nx\n```",
		`[web_search(q='\x41\u00e9\101', r=r"\d", t="""a"""`, `{"name": "web_search", "parameters": {}}`,
	} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		passed, out, calls, _ := run(s, int(n%9), true, false)
		names := false
		for _, tool := range offered {
			names = names || strings.Contains(s, tool.Name)
		}
		if !names && (out != Text || passed != s) {
			t.Fatalf("%q names no tool, yet: %d, passed %q", s, out, passed)
		}
		if out == Text && passed != s {
			t.Fatalf("%q passed on as %q", s, passed)
		}
		if !strings.HasPrefix(s, passed) {
			t.Fatalf("%q: passed on %q, not a prefix", s, passed)
		}
		for _, c := range calls {
			var obj map[string]any
			if c.Name != "xbrl_facts" && c.Name != "web_search" || json.Unmarshal(c.Args, &obj) != nil {
				t.Fatalf("%q: call %s %s", s, c.Name, c.Args)
			}
		}
	})
}
