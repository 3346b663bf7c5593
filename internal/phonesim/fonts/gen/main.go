// Command gen writes the simulator's CJK bitmap font (fonts/cjk.bin.gz)
// from an OpenType font: every character of GB2312's level 1 and its
// punctuation and full-width rows, plus every CJK character the
// repository's source, docs and test data use, drawn once at a fixed pixel
// size. fonts/README.md says how to run it.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func main() {
	src := flag.String("src", "", "the OpenType font to draw from (NotoSansHans-Regular.otf)")
	out := flag.String("out", "internal/phonesim/fonts/cjk.bin.gz", "the font file to write")
	root := flag.String("root", ".", "the repository to scan for CJK characters")
	em := flag.Int("em", 40, "pixel size the glyphs are drawn at")
	levels := flag.Int("bits", 1, "bits per pixel of coverage: 1 or 2")
	flag.Parse()
	if *src == "" {
		log.Fatal("gen: -src is required: the path of NotoSansHans-Regular.otf (fonts/README.md says where it comes from)")
	}
	if *levels != 1 && *levels != 2 {
		log.Fatal("gen: -bits must be 1 or 2")
	}
	b, err := os.ReadFile(*src)
	if err != nil {
		log.Fatal(err)
	}
	f, err := opentype.Parse(b)
	if err != nil {
		log.Fatalf("gen: %s: %v", *src, err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(*em), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		log.Fatal(err)
	}
	runes := gb2312()
	repo, err := scan(*root)
	if err != nil {
		log.Fatal(err)
	}
	runes = append(runes, repo...)
	slices.Sort(runes)
	runes = slices.Compact(runes)

	var raw bytes.Buffer
	raw.WriteString("PSCJK1")
	put := func(v any) {
		if err := binary.Write(&raw, binary.LittleEndian, v); err != nil {
			log.Fatal(err)
		}
	}
	put(uint16(*em))
	put(uint8(*levels))
	var body bytes.Buffer
	n, missing := 0, 0
	for _, r := range runes {
		idx, err := f.GlyphIndex(nil, r)
		if err != nil || idx == 0 {
			missing++
			continue
		}
		dr, mask, mp, adv, ok := face.Glyph(fixed.P(0, 0), r)
		if !ok {
			missing++
			continue
		}
		bits := pack(mask, mp, dr, *levels)
		w := &body
		for _, v := range []any{uint32(r), uint8(adv.Round()), int8(dr.Min.X), int8(dr.Min.Y), uint8(dr.Dx()), uint8(dr.Dy())} {
			if err := binary.Write(w, binary.LittleEndian, v); err != nil {
				log.Fatal(err)
			}
		}
		w.Write(bits)
		n++
	}
	put(uint32(n))
	raw.Write(body.Bytes())
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	zw.Write(raw.Bytes())
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, gz.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d glyphs (%d of the repository's characters), %d not in the font; %d bytes, %d gzipped\n",
		n, len(repo), missing, raw.Len(), gz.Len())
}

// pack keeps the glyph's coverage at levels bits a pixel, row after row.
func pack(mask image.Image, mp image.Point, dr image.Rectangle, levels int) []byte {
	var out []byte
	var cur byte
	nbits := 0
	for y := 0; y < dr.Dy(); y++ {
		for x := 0; x < dr.Dx(); x++ {
			_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA() // 0..0xffff
			var v byte
			if levels == 1 {
				if a >= 0x8000 {
					v = 1
				}
			} else {
				v = byte((a*3 + 0x7fff) / 0xffff)
			}
			cur |= v << nbits
			nbits += levels
			if nbits == 8 {
				out = append(out, cur)
				cur, nbits = 0, 0
			}
		}
	}
	if nbits > 0 {
		out = append(out, cur)
	}
	return out
}

// gb2312 lists the CJK characters of GB2312's punctuation row (1), its
// full-width forms (row 3) and its 3755 level-1 hanzi (rows 16 to 55).
func gb2312() []rune {
	var out []rune
	dec := simplifiedchinese.GBK.NewDecoder()
	for hi := 0xA1; hi <= 0xD7; hi++ {
		if hi != 0xA1 && hi != 0xA3 && hi < 0xB0 {
			continue
		}
		for lo := 0xA1; lo <= 0xFE; lo++ {
			if hi == 0xD7 && lo > 0xF9 {
				break
			}
			s, err := dec.Bytes([]byte{byte(hi), byte(lo)})
			if err != nil {
				continue
			}
			for _, r := range string(s) {
				if cjk(r) { // not the Latin punctuation the Go fonts have
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// scan collects the CJK characters of the repository's Go, Markdown,
// JSON and YAML files.
func scan(root string) ([]rune, error) {
	seen := map[rune]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".json", ".yaml", ".yml":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, r := range string(b) {
			if cjk(r) {
				seen[r] = true
			}
		}
		return nil
	})
	out := make([]rune, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	return out, err
}

// cjk reports whether r is a character the Go fonts lack and the CJK font
// has: Han, kana, CJK punctuation and full-width forms.
func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}
