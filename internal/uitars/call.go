package uitars

import (
	"fmt"
	"strings"
	"unicode"
)

// call is one action call as written: a name and its keyword arguments.
type call struct {
	name string
	args map[string]string
	end  int // index just after the closing parenthesis
}

// readCall reads name(key='value', ...) at text[i]. Values are quoted
// with ' or " (a backslash escapes the next character; \n is a newline)
// or bare up to the next , or ). ok is false when text[i:] is no call.
func readCall(text string, i int) (call, string, bool) {
	j := i
	for j < len(text) && (text[j] == '_' || isAlnum(rune(text[j]))) {
		j++
	}
	if j == i {
		return call{}, "", false
	}
	c := call{name: strings.ToLower(text[i:j]), args: map[string]string{}}
	k := skipSpace(text, j)
	if k >= len(text) || text[k] != '(' {
		return call{}, "", false
	}
	k++
	for {
		k = skipSpace(text, k)
		if k >= len(text) {
			// Cut off: the arguments read so far are all there is.
			c.end = k
			return c, "", true
		}
		if text[k] == ')' {
			c.end = k + 1
			return c, "", true
		}
		ks := k
		for k < len(text) && (text[k] == '_' || isAlnum(rune(text[k]))) {
			k++
		}
		key := strings.ToLower(text[ks:k])
		k = skipSpace(text, k)
		if key == "" || k >= len(text) || text[k] != '=' {
			return c, fmt.Sprintf("%s(...) has an argument without a name=: write %s(key='value')", c.name, c.name), true
		}
		k = skipSpace(text, k+1)
		v, next, bad := readValue(text, k)
		if bad != "" {
			return c, c.name + ": " + bad, true
		}
		c.args[key] = v
		k = skipSpace(text, next)
		if k < len(text) && text[k] == ',' {
			k++
		}
	}
}

// readValue reads one quoted or bare argument value at text[i].
func readValue(text string, i int) (string, int, string) {
	if i >= len(text) {
		return "", i, "argument value missing"
	}
	q := text[i]
	if q == '\\' && i+1 < len(text) && (text[i+1] == '\'' || text[i+1] == '"') {
		// The quotes escaped, as a relayed or logged answer writes them
		// (start_box=\'(660,1059)\'): the value ends at the escaped quote.
		return readEscapedValue(text, i+2, text[i+1])
	}
	if q != '\'' && q != '"' {
		j := i
		for j < len(text) && text[j] != ',' && text[j] != ')' && text[j] != '\n' {
			j++
		}
		return strings.TrimSpace(text[i:j]), j, ""
	}
	var b strings.Builder
	for j := i + 1; j < len(text); j++ {
		switch c := text[j]; {
		case c == '\\' && j+1 < len(text):
			j++
			switch text[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(text[j])
			}
		case c == q && closes(text, j+1):
			return b.String(), j + 1, ""
		default:
			b.WriteByte(c)
		}
	}
	return "", i, "unterminated string: close it with a quote"
}

// readEscapedValue reads a value from text[i] that an escaped quote q
// (a backslash and q) closes.
func readEscapedValue(text string, i int, q byte) (string, int, string) {
	var b strings.Builder
	for j := i; j < len(text); j++ {
		c := text[j]
		if c == '\\' && j+1 < len(text) && text[j+1] == q && closes(text, j+2) {
			return b.String(), j + 2, ""
		}
		if c == '\\' && j+1 < len(text) {
			j++
			switch text[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(text[j])
			}
			continue
		}
		b.WriteByte(c)
	}
	return "", i, "unterminated string: close it with a quote"
}

// closes reports whether a quote before text[i] ends its value: what
// follows is the next argument or the end of the call.
func closes(text string, i int) bool {
	i = skipSpace(text, i)
	if i >= len(text) || text[i] == ')' {
		return true
	}
	if text[i] != ',' {
		return false
	}
	j := skipSpace(text, i+1)
	k := j
	for k < len(text) && (text[k] == '_' || isAlnum(rune(text[k]))) {
		k++
	}
	return k > j && skipSpace(text, k) < len(text) && text[skipSpace(text, k)] == '='
}

func skipSpace(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

func isAlnum(r rune) bool { return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
