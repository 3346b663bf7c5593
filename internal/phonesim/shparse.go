package phonesim

import (
	"errors"
	"strings"
)

// A parsed shell line: pipelines joined by ";", "&&" or "||".
type pipeline struct {
	op    string // how it joins the previous pipeline: "", ";", "&&", "||"
	cmds  []shCmd
	empty bool
}

// shCmd is one simple command with its redirections.
type shCmd struct {
	args      []string
	outFile   string // > or >> target
	appendOut bool
	errNull   bool // 2>/dev/null
	errToOut  bool // 2>&1
}

type token struct {
	op   string // operator, or "" for a word
	word string
}

var errUnmatchedQuote = errors.New("syntax error: unmatched quote")

// tokenize splits a line like sh: whitespace separates words; single quotes
// are literal; double quotes allow \" \\ \$ \` escapes; a backslash outside
// quotes escapes the next character; ; && || | & > >> 2> are operators.
func tokenize(line string) ([]token, error) {
	var toks []token
	var cur strings.Builder
	inWord, quoted := false, false
	flush := func() {
		if inWord {
			toks = append(toks, token{word: cur.String()})
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errUnmatchedQuote
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, quoted = true, true
			i += j + 1
		case c == '"':
			inWord, quoted = true, true
			closed := false
			for i++; i < len(line); i++ {
				d := line[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0 {
					i++
					d = line[i]
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, errUnmatchedQuote
			}
		case c == '\\':
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
			inWord = true
		case c == '#' && !inWord:
			i = len(line)
		case c == ';':
			flush()
			toks = append(toks, token{op: ";"})
		case c == '&':
			flush()
			if i+1 < len(line) && line[i+1] == '&' {
				i++
				toks = append(toks, token{op: "&&"})
			} else {
				toks = append(toks, token{op: ";"}) // background: run in order
			}
		case c == '|':
			flush()
			if i+1 < len(line) && line[i+1] == '|' {
				i++
				toks = append(toks, token{op: "||"})
			} else {
				toks = append(toks, token{op: "|"})
			}
		case c == '>':
			op := ">"
			if inWord && !quoted && cur.String() == "2" {
				cur.Reset()
				inWord = false
				op = "2>"
				if strings.HasPrefix(line[i+1:], "&1") {
					i += 2
					op = "2>&1"
				}
			} else {
				flush()
				if i+1 < len(line) && line[i+1] == '>' {
					i++
					op = ">>"
				}
			}
			toks = append(toks, token{op: op})
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks, nil
}

// parseLine turns a shell line into pipelines.
func parseLine(line string) ([]pipeline, error) {
	toks, err := tokenize(line)
	if err != nil {
		return nil, err
	}
	var out []pipeline
	pl := pipeline{}
	cmd := shCmd{}
	endCmd := func() error {
		if len(cmd.args) == 0 {
			if cmd.outFile != "" {
				return errors.New("syntax error: redirection without a command")
			}
			return nil
		}
		pl.cmds = append(pl.cmds, cmd)
		cmd = shCmd{}
		return nil
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.op {
		case "":
			cmd.args = append(cmd.args, t.word)
		case ">", ">>", "2>":
			if i+1 >= len(toks) || toks[i+1].op != "" {
				return nil, errors.New("syntax error: missing file name after " + t.op)
			}
			i++
			if t.op == "2>" {
				cmd.errNull = toks[i].word == "/dev/null"
			} else {
				cmd.outFile, cmd.appendOut = toks[i].word, t.op == ">>"
			}
		case "2>&1":
			cmd.errToOut = true
		case "|":
			if len(cmd.args) == 0 {
				return nil, errors.New("syntax error: '|' unexpected")
			}
			if err := endCmd(); err != nil {
				return nil, err
			}
		default: // ; && ||
			if err := endCmd(); err != nil {
				return nil, err
			}
			if len(pl.cmds) == 0 && t.op != ";" {
				return nil, errors.New("syntax error: '" + t.op + "' unexpected")
			}
			if len(pl.cmds) > 0 {
				out = append(out, pl)
			}
			pl = pipeline{op: t.op}
		}
	}
	if err := endCmd(); err != nil {
		return nil, err
	}
	if len(pl.cmds) > 0 {
		out = append(out, pl)
	}
	return out, nil
}
