package shell

import (
	"strings"
	"testing"
)

// TestLongStreamIsLaidOutByItsEnd: while a turn of a megabyte streams, the
// screen lays out about the last liveTail bytes of it (and says how much is
// above), through /ask's deltas (write) and a debate's (stream) alike; it
// laid out all of the turn so far with every delta. Once the turn ends, all
// of it is shown.
func TestLongStreamIsLaidOutByItsEnd(t *testing.T) {
	line := "Cash conversion of 0.86x means earnings outrun cash, every quarter.\n"
	reply := "FIRST LINE\n" + strings.Repeat(line, (1<<20)/len(line)) + "LAST LINE"
	const width = 100
	// At most two lines of the width for every line of the tail, the
	// heading and the note of what is above.
	most := 2*(liveTail/len(line)+1) + 4
	for name, feed := range map[string]func(b *block){
		"ask": func(b *block) {
			for i := 0; i < len(reply); i += 4096 {
				b.write(reply[i:min(i+4096, len(reply))])
			}
		},
		"debate": func(b *block) { b.stream(reply) },
	} {
		t.Run(name, func(t *testing.T) {
			tr := newTranscript(newStyles(false, true))
			tr.resize(width)
			b := &block{gap: true, head: "Bear · opening", agent: "bear", markdown: true}
			tr.setLive(b)
			feed(b)
			lines := tr.Lines()
			all := strings.Join(lines, "\n")
			if len(lines) > most || strings.Contains(all, "FIRST LINE") {
				t.Errorf("the streaming turn is laid out in %d lines, want at most %d, and not its start", len(lines), most)
			}
			if !strings.Contains(all, "LAST LINE") || !strings.Contains(all, "KB of the turn before this") {
				t.Errorf("the streaming turn's end, or the note of what is above it, is not shown:\n%.500s", all)
			}
			b.setText(prose(reply)) // the turn ends
			tr.finishLive()
			all = strings.Join(tr.Lines(), "\n")
			if !strings.Contains(all, "FIRST LINE") || !strings.Contains(all, "LAST LINE") || strings.Contains(all, "KB of the turn before this") {
				t.Errorf("the finished turn is not shown whole:\n%.300s", all)
			}
		})
	}
}
