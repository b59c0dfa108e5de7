// Package textsearch ranks passages of text against a query with Okapi
// BM25, the ranking full-text search engines start from. It is small on
// purpose: the filings an agent searches are a few hundred passages each.
package textsearch

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// BM25 parameters: the usual defaults.
const (
	k1 = 1.2
	b  = 0.75
)

// Index is a BM25 index over passages. Build it with New; it is immutable
// and safe for concurrent use.
type Index struct {
	docs  []map[string]int // term frequencies per passage
	lens  []int
	avg   float64
	df    map[string]int
	total int
}

// New indexes the passages.
func New(passages []string) *Index {
	ix := &Index{df: map[string]int{}, total: len(passages)}
	sum := 0
	for _, p := range passages {
		tf := map[string]int{}
		toks := Tokens(p)
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			ix.df[t]++
		}
		ix.docs = append(ix.docs, tf)
		ix.lens = append(ix.lens, len(toks))
		sum += len(toks)
	}
	if len(passages) > 0 {
		ix.avg = float64(sum) / float64(len(passages))
	}
	return ix
}

// Hit is a passage's position in the input and its score.
type Hit struct {
	Passage int
	Score   float64
}

// Search returns up to k passages that share a term with the query, best
// first (ties in passage order).
func (ix *Index) Search(query string, k int) []Hit {
	terms := Tokens(query)
	slices.Sort(terms)
	terms = slices.Compact(terms)
	var hits []Hit
	for i, tf := range ix.docs {
		s := 0.0
		for _, t := range terms {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			n := float64(ix.df[t])
			idf := math.Log(1 + (float64(ix.total)-n+0.5)/(n+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(ix.lens[i])/ix.avg))
		}
		if s > 0 {
			hits = append(hits, Hit{Passage: i, Score: s})
		}
	}
	slices.SortStableFunc(hits, func(x, y Hit) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		return 0
	})
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// stop words carry no meaning for ranking.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in is it its of on or that the
		this to was were will with we our us not may can could would should which their they than such these those
		any all also been into other more most over if so do does did`) {
		stop[w] = true
	}
}

// Tokens lower-cases text, splits it into letter/digit runs, drops stop
// words and strips a plural "s", so that "risks" finds "risk".
func Tokens(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stop[f] || len(f) < 2 {
			continue
		}
		if len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") {
			f = f[:len(f)-1]
		}
		out = append(out, f)
	}
	return out
}
