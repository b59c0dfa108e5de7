package formal

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/sec/sectools"
)

// Web search bounds for the shared context K.
const (
	webResults = 5
	webTitle   = 120
	webSnippet = 280
)

// noWebFact is K's note when no web search was made.
const noWebFact = "No web search was made: outside evidence must be stated and is open to challenge"

// AddWebSearch is step 1.4 of the spec's information gathering ("web search
// for benchmarks, best practices if applicable"): when a web search engine is
// configured, it searches the topic once and adds the results, each with its
// URL, to K's facts and digest, for both sides. Without an engine K keeps its
// note that no web search was made. A failed search is noted in K and does not
// stop the debate: the search is an aid, and the debaters are told that
// outside evidence is open to challenge.
func (c *Context) AddWebSearch(ctx context.Context, web sectools.WebSearcher, topic string) {
	c.Facts = slices.DeleteFunc(c.Facts, func(f string) bool { return f == noWebFact })
	if web == nil {
		c.Facts = append(c.Facts, noWebFact)
		return
	}
	res, err := web.Search(ctx, topic, webResults)
	switch {
	case err != nil:
		c.Facts = append(c.Facts, fmt.Sprintf("Web search (%s) failed: %s; outside evidence must be stated and is open to challenge", web.Name(), short(err.Error(), 200)))
		return
	case len(res) == 0:
		c.Facts = append(c.Facts, fmt.Sprintf("Web search (%s) for the topic found nothing", web.Name()))
		return
	}
	var dg strings.Builder
	fmt.Fprintf(&dg, "\n## Web search (%s) for the topic: results are outside sources, cite their URL\n", web.Name())
	for _, r := range res[:min(len(res), webResults)] {
		title := short(r.Title, webTitle)
		date := ""
		if r.Published != "" {
			date = ", " + short(r.Published, 40)
		}
		c.Facts = append(c.Facts, fmt.Sprintf("Web: %s (%s%s)", title, short(r.URL, 300), date))
		fmt.Fprintf(&dg, "- %s — %s%s: %s\n", title, short(r.URL, 300), date, short(r.Snippet, webSnippet))
	}
	c.Digest += dg.String()
}
