package pdf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// glyphs is the set of characters a TrueType font has glyphs for, read from
// its cmap table as fpdf reads it (the Unicode BMP subtable of format 4):
// fpdf prints any other character as the font's empty "missing" glyph, a
// blank box, so that a reply in Chinese, or a verdict given as an emoji,
// came out as boxes or nothing.
type glyphs struct {
	segs []segment
	cmap []byte // the format 4 subtable, for segments that map through glyphIDs
}

// segment is one format 4 segment: characters start..end.
type segment struct {
	start, end uint16
	delta      uint16
	rangeOff   uint16
	rangeAt    int // offset in cmap of this segment's idRangeOffset
}

// readGlyphs reads the characters font maps to glyphs.
func readGlyphs(font []byte) (*glyphs, error) {
	be := binary.BigEndian
	if len(font) < 12 {
		return nil, errors.New("not a TrueType font: too short")
	}
	var cmap []byte
	n := int(be.Uint16(font[4:]))
	for i := range n {
		rec := 12 + 16*i
		if rec+16 > len(font) {
			return nil, errors.New("not a TrueType font: the table directory is cut")
		}
		if string(font[rec:rec+4]) == "cmap" {
			off, size := int(be.Uint32(font[rec+8:])), int(be.Uint32(font[rec+12:]))
			if off < 0 || size < 4 || off+size > len(font) {
				return nil, errors.New("not a TrueType font: the cmap table is out of the file")
			}
			cmap = font[off : off+size]
		}
	}
	if cmap == nil {
		return nil, errors.New("the font has no cmap table")
	}
	var sub []byte
	for i := range int(be.Uint16(cmap[2:])) {
		rec := 4 + 8*i
		if rec+8 > len(cmap) {
			break
		}
		platform, encoding, off := be.Uint16(cmap[rec:]), be.Uint16(cmap[rec+2:]), int(be.Uint32(cmap[rec+4:]))
		if (platform == 3 && encoding == 1 || platform == 0) && off+14 <= len(cmap) && be.Uint16(cmap[off:]) == 4 {
			size := int(be.Uint16(cmap[off+2:]))
			if off+size > len(cmap) {
				size = len(cmap) - off
			}
			sub = cmap[off : off+size]
			break
		}
	}
	if sub == nil {
		return nil, errors.New("the font has no Unicode cmap of format 4")
	}
	segCount := int(be.Uint16(sub[6:])) / 2
	ends, starts, deltas, ranges := 14, 14+2*segCount+2, 14+4*segCount+2, 14+6*segCount+2
	if ranges+2*segCount > len(sub) {
		return nil, fmt.Errorf("the font's cmap is cut: %d segments in %d bytes", segCount, len(sub))
	}
	g := &glyphs{cmap: sub, segs: make([]segment, segCount)}
	for i := range segCount {
		g.segs[i] = segment{
			end: be.Uint16(sub[ends+2*i:]), start: be.Uint16(sub[starts+2*i:]),
			delta: be.Uint16(sub[deltas+2*i:]), rangeOff: be.Uint16(sub[ranges+2*i:]), rangeAt: ranges + 2*i,
		}
	}
	return g, nil
}

// has reports whether the font has a glyph for c.
func (g *glyphs) has(c rune) bool {
	if c < 0 || c >= 0xFFFF {
		return false
	}
	i := sort.Search(len(g.segs), func(i int) bool { return g.segs[i].end >= uint16(c) })
	if i == len(g.segs) || g.segs[i].start > uint16(c) {
		return false
	}
	s := g.segs[i]
	if s.rangeOff == 0 {
		return (uint16(c)+s.delta)&0xFFFF != 0
	}
	at := s.rangeAt + int(s.rangeOff) + 2*int(uint16(c)-s.start)
	if at+2 > len(g.cmap) {
		return false
	}
	return binary.BigEndian.Uint16(g.cmap[at:]) != 0
}
