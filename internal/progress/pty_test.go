//go:build linux

package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// openPTY opens a pseudo-terminal cols columns wide and returns its two
// ends; the terminal end is raw, so bytes pass unchanged.
func openPTY(t *testing.T, cols int) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 60, Col: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	if _, err := term.MakeRaw(int(s.Fd())); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// screen is a small terminal: it wraps at its width and knows the cursor
// moves the renderer uses ("\x1b[nF", "\x1b[J", colours).
type screen struct {
	width int
	rows  [][]rune
	r, c  int
}

func (s *screen) row() []rune {
	for len(s.rows) <= s.r {
		s.rows = append(s.rows, nil)
	}
	return s.rows[s.r]
}

func (s *screen) write(text string) {
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		ch := rs[i]
		switch {
		case ch == '\x1b' && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == ';') {
				j++
			}
			n, _ := strconv.Atoi(string(rs[i+2 : j]))
			switch rs[j] {
			case 'F':
				s.r, s.c = max(0, s.r-max(n, 1)), 0
			case 'J':
				row := s.row()
				if s.c < len(row) {
					s.rows[s.r] = row[:s.c]
				}
				s.rows = s.rows[:s.r+1]
			}
			i = j
		case ch == '\n':
			s.r, s.c = s.r+1, 0
		case ch == '\r':
			s.c = 0
		default:
			w := runeCells(ch)
			if s.c+w > s.width {
				s.r, s.c = s.r+1, 0
			}
			row := s.row()
			for len(row) < s.c {
				row = append(row, ' ')
			}
			row = append(row[:s.c], ch)
			if w == 2 {
				row = append(row, 0) // the second cell of a wide rune
			}
			s.rows[s.r] = row
			s.c += w
		}
	}
}

func (s *screen) text() []string {
	var out []string
	for _, r := range s.rows {
		out = append(out, strings.ReplaceAll(string(r), "\x00", ""))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// The live view leaves nothing behind when its lines are wider than the
// terminal: after every redraw the screen holds exactly the clipped view,
// one row per line, at 40, 80 and 200 columns, and Clear erases it all.
func TestRedrawByScreenRowsThroughAPTY(t *testing.T) {
	long := strings.Repeat("Open the Clock app and read the first alarm, then tell Alice ", 5)
	wide := strings.Repeat("打开时钟应用并读取第一个闹钟", 6)
	for _, cols := range []int{40, 80, 200} {
		t.Run(strconv.Itoa(cols), func(t *testing.T) {
			master, tty := openPTY(t, cols)
			got := make(chan []byte, 1)
			var written int
			r := New(tty, true)
			r.SetWidth(TerminalWidth(tty))
			r.SetColor(true)
			scr := &screen{width: cols}
			for step := 1; step <= 6; step++ {
				s := Snapshot{GoalID: "goal-1a2b3c4d", Phase: "running", Steps: step, MaxSteps: 100, Goal: long, CurrentTodo: 1,
					Todos:   []Todo{{Text: long, Status: "running", Steps: step}, {Text: wide, Status: "pending"}},
					Action:  fmt.Sprintf("Tap [500,%d] → ok %s", step, long),
					Routine: "replaying a learned routine for " + long}
				var buf strings.Builder
				r.w = io.MultiWriter(tty, &buf)
				if err := r.Update(s); err != nil {
					t.Fatal(err)
				}
				written += buf.Len()
				go func(n int) {
					b := make([]byte, n)
					_, err := io.ReadFull(master, b)
					if err != nil {
						t.Error(err)
					}
					got <- b
				}(buf.Len())
				scr.write(string(<-got))
				want := Block(s)
				lines := scr.text()
				if len(lines) != len(want) {
					t.Fatalf("step %d: the screen holds %d rows, the view %d lines:\n%s", step, len(lines), len(want), strings.Join(lines, "\n"))
				}
				for i, l := range lines {
					plain := stripANSI(l)
					if cells(plain) > cols-1 {
						t.Errorf("step %d row %d is %d cells wide on a %d-column terminal: %q", step, i, cells(plain), cols, plain)
					}
					if !strings.HasPrefix(want[i], strings.TrimSuffix(plain, "…")) {
						t.Errorf("step %d row %d = %q, not the start of %q", step, i, plain, want[i])
					}
				}
			}
			var buf strings.Builder
			r.w = io.MultiWriter(tty, &buf)
			if err := r.Clear(); err != nil {
				t.Fatal(err)
			}
			b := make([]byte, buf.Len())
			if _, err := io.ReadFull(master, b); err != nil {
				t.Fatal(err)
			}
			scr.write(string(b))
			if rest := scr.text(); len(rest) != 0 {
				t.Fatalf("after Clear the screen still holds:\n%s", strings.Join(rest, "\n"))
			}
		})
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\x1b' {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
