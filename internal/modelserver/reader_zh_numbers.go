package modelserver

import (
	"regexp"
	"strconv"
)

// Chinese numbers in a percentage (docs/design.md §9): "百分之五十",
// "百分之七十五", "百分之百". The readers of a level take digits, so a
// percentage said in words is written in digits first; one that is no
// number stays as it was and is asked about.

// rdZhPctWordRe is a percentage whose number is said in Chinese words.
var rdZhPctWordRe = regexp.MustCompile(`百分之\s*([零一二两三四五六七八九十百]+)`)

// zhPercentDigits writes the percentages of c said in words in digits:
// "百分之五十" becomes "百分之50".
func zhPercentDigits(c string) string {
	return rdZhPctWordRe.ReplaceAllStringFunc(c, func(s string) string {
		w := rdZhPctWordRe.FindStringSubmatch(s)[1]
		n := wordNumber(w)
		if w == "百" || w == "一百" {
			n = 100
		}
		if n < 0 {
			return s
		}
		return "百分之" + strconv.Itoa(n)
	})
}
