package waits

import (
	"strconv"
	"strings"
)

var enNumbers = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
	"forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90, "half an": 0.5, "half a": 0.5, "a half": 0.5,
	"a quarter of an": 0.25, "quarter of an": 0.25, "a couple of": 2, "a few": 3,
}

var zhDigits = map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// readNumber reads a number at the start of s: digits (with a decimal
// point), an English number word, or a Chinese numeral up to 99.
func readNumber(s string) (float64, int, bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' && i > 0) {
		i++
	}
	if i > 0 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s[:i], "."), 64)
		if err == nil {
			return v, len(strings.TrimSuffix(s[:i], ".")), true
		}
	}
	best, bestN := 0.0, 0
	for w, v := range enNumbers {
		if strings.HasPrefix(s, w+" ") && len(w) > bestN {
			best, bestN = v, len(w)
		}
	}
	if bestN > 0 {
		return best, bestN, true
	}
	// Chinese: 五, 十, 十五, 二十, 二十五, 三〇.
	rs := []rune(s)
	n := 0
	for n < len(rs) && n < 3 {
		if _, ok := zhDigits[rs[n]]; !ok && rs[n] != '十' {
			break
		}
		n++
	}
	if n == 0 {
		return 0, 0, false
	}
	word := rs[:n]
	val := 0
	if i := indexRune(word, '十'); i >= 0 {
		tens, ones := 1, 0
		if i > 0 {
			tens = zhDigits[word[i-1]]
		}
		if i+1 < len(word) {
			ones = zhDigits[word[i+1]]
		}
		val = tens*10 + ones
		n = min(len(word), i+2)
	} else {
		for _, r := range word {
			val = val*10 + zhDigits[r]
		}
	}
	return float64(val), len(string(rs[:n])), true
}

func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}
