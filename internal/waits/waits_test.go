package waits

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDurationsAndClocks(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // Wait.String()
	}{
		{"20 minutes", "20m0s"},
		{"20 mins", "20m0s"},
		{"for 20 minutes", "20m0s"},
		{"1h30m", "1h30m0s"},
		{"90s", "1m30s"},
		{"2 hours", "2h0m0s"},
		{"an hour", "1h0m0s"},
		{"half an hour", "30m0s"},
		{"an hour and a half", "1h30m0s"},
		{"1 hour and 20 minutes", "1h20m0s"},
		{"1 hour, 5 minutes", "1h5m0s"},
		{"two days", "48h0m0s"},
		{"20分钟", "20m0s"},
		{"二十分钟", "20m0s"},
		{"十五分钟", "15m0s"},
		{"半小时", "30m0s"},
		{"一个半小时", "1h30m0s"},
		{"两个小时", "2h0m0s"},
		{"1小时20分钟", "1h20m0s"},
		{"３０秒", "30s"},
		{"until 21:00", "21:00"},
		{"21:00", "21:00"},
		{"9pm", "21:00"},
		{"9:30 pm", "21:30"},
		{"12am", "00:00"},
		{"noon", "12:00"},
		{"midnight", "00:00"},
		{"tomorrow 7:30", "tomorrow 07:30"},
		{"tomorrow at 7am", "tomorrow 07:30"[:0] + "tomorrow 07:00"},
		{"today 18:00", "today 18:00"},
		{"tonight 9", "today 21:00"},
		{"2026-11-20 21:00", "2026-11-20 21:00"},
		{"晚上9点", "21:00"},
		{"下午3点半", "15:30"},
		{"21点30分", "21:30"},
		{"上午十点一刻", "10:15"},
		{"明天早上7点", "tomorrow 07:00"},
		{"今晚8点", "today 20:00"},
		{"到21：00", "21:00"},
	} {
		w, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := w.String(); got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseRefusesWithTheFix(t *testing.T) {
	for _, in := range []string{"", "teatime", "until the cows come home", "20", "0 minutes", "-5 minutes", "400 days", "25:00", "13pm"} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) read a wait", in)
			continue
		}
		if !strings.Contains(err.Error(), "wait") {
			t.Errorf("Parse(%q) error does not say what to write: %v", in, err)
		}
	}
}

func TestTodo(t *testing.T) {
	for _, c := range []struct {
		in     string
		ok     bool
		want   string
		hasErr bool
	}{
		{"Wait 20 minutes", true, "20m0s", false},
		{"Wait for 20 minutes.", true, "20m0s", false},
		{"wait until 21:00", true, "21:00", false},
		{"Wait until 9pm", true, "21:00", false},
		{"Wait until tomorrow 07:00", true, "tomorrow 07:00", false},
		{"Wait 20m0s", true, "20m0s", false},
		{"等待20分钟", true, "20m0s", false},
		{"等到晚上9点", true, "21:00", false},
		{"等半小时", true, "30m0s", false},
		{"Wait for the page to load", false, "", false},
		{"Wait for Zhang San's reply in WeChat", false, "", false},
		{"Open Settings", false, "", false},
		{"Wait 40 seconds, then turn on Wi-Fi", false, "", false},
		{"wait until 21:00 and open the Clock app", false, "", false},
		{"Wait until 99:99", true, "", true},
		{"Wait until 20", true, "", true},
	} {
		w, ok, err := Todo(c.in)
		if ok != c.ok || (err != nil) != c.hasErr {
			t.Errorf("Todo(%q) = %v, %v, %v; want ok %v, error %v", c.in, w, ok, err, c.ok, c.hasErr)
			continue
		}
		if ok && err == nil && w.String() != c.want {
			t.Errorf("Todo(%q) = %s, want %s", c.in, w, c.want)
		}
	}
}

func TestTodoTextReadsBack(t *testing.T) {
	for _, in := range []string{"20 minutes", "an hour and a half", "90s", "2 days", "21:00", "tomorrow 7am", "2026-11-20 21:00"} {
		w, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		back, ok, err := Todo(w.TodoText())
		if !ok || err != nil || back != w {
			t.Errorf("%q: Todo(%q) = %+v, %v, %v; want %+v", in, w.TodoText(), back, ok, err, w)
		}
	}
}

func TestLead(t *testing.T) {
	for _, c := range []struct {
		in, wait, rest string
	}{
		{"At 21:00, open Settings", "21:00", "open Settings"},
		{"at 9pm open WeChat and tell Zhang San good night", "21:00", "open WeChat and tell Zhang San good night"},
		{"In 20 minutes, open Settings", "20m0s", "open Settings"},
		{"in 2 hours then turn on Wi-Fi", "2h0m0s", "turn on Wi-Fi"},
		{"Wait 20 minutes, then open Settings", "20m0s", "open Settings"},
		{"wait until 21:00 and then open the Clock app", "21:00", "open the Clock app"},
		{"20分钟后打开设置", "20m0s", "打开设置"},
		{"过半小时再打开微信", "30m0s", "打开微信"},
		{"等20分钟再打开设置", "20m0s", "打开设置"},
		{"晚上9点打开设置", "21:00", "打开设置"},
		{"明天早上7点，给张三发消息说早上好", "tomorrow 07:00", "给张三发消息说早上好"},
	} {
		w, rest, ok := Lead(c.in)
		if !ok || w.String() != c.wait || rest != c.rest {
			t.Errorf("Lead(%q) = %s, %q, %v; want %s, %q", c.in, w, rest, ok, c.wait, c.rest)
		}
	}
	for _, in := range []string{"Open Settings", "in Settings, turn on Wi-Fi", "at the top, tap Search", "Wait 20 minutes",
		"Tell Zhang San the meeting moved to 2pm", "at 9 apps are open", "打开设置"} {
		if w, rest, ok := Lead(in); ok {
			t.Errorf("Lead(%q) = %s, %q: want no wait", in, w, rest)
		}
	}
}

func TestUntil(t *testing.T) {
	sh, err := Zone("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 12, 40, 0, 0, time.UTC) // 20:40 in Shanghai
	at := func(s string) (time.Time, error) {
		w, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return w.Until(now, sh)
	}
	if got, _ := at("21:00"); !got.Equal(time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("21:00 in Shanghai at 20:40 = %s, want 13:00 UTC today", got.UTC())
	}
	if got, _ := at("07:00"); !got.Equal(time.Date(2026, 11, 23, 23, 0, 0, 0, time.UTC)) {
		t.Errorf("07:00 at 20:40 = %s, want tomorrow morning (23:00 UTC)", got.UTC())
	}
	if got, _ := at("20 minutes"); !got.Equal(now.Add(20 * time.Minute)) {
		t.Errorf("20 minutes = %s", got)
	}
	if _, err := at("today 18:00"); !errors.Is(err, ErrPast) {
		t.Errorf("today 18:00 at 20:40: %v, want ErrPast", err)
	}
	if _, err := at("2026-11-20 21:00"); !errors.Is(err, ErrPast) {
		t.Errorf("a past date: %v, want ErrPast", err)
	}
	// Across the spring daylight-saving change the wall-clock time holds.
	ny, _ := Zone("America/New_York")
	w, _ := Parse("09:00")
	before := time.Date(2026, 3, 7, 22, 0, 0, 0, ny) // Saturday 22:00 EST
	got, _ := w.Until(before, ny)
	if got.In(ny).Hour() != 9 || got.Sub(before) != 10*time.Hour {
		t.Errorf("09:00 after 22:00 before DST = %s (%s later)", got.In(ny), got.Sub(before))
	}
}

func TestZone(t *testing.T) {
	for in, off := range map[string]int{"": 0, "UTC": 0, "+08:00": 8 * 3600, "UTC+8": 8 * 3600, "-0530": -(5*3600 + 1800)} {
		loc, err := Zone(in)
		if err != nil {
			t.Errorf("Zone(%q): %v", in, err)
			continue
		}
		if _, o := time.Date(2026, 1, 1, 0, 0, 0, 0, loc).Zone(); o != off {
			t.Errorf("Zone(%q) offset %d, want %d", in, o, off)
		}
	}
	if _, err := Zone("Mars/Base"); err == nil || !strings.Contains(err.Error(), "Asia/Shanghai") {
		t.Errorf("Zone(Mars/Base) = %v, want an error naming the fix", err)
	}
	if z := LocalZone(time.Now()); z == "" {
		t.Error("LocalZone is empty")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"20 minutes", "21:00", "晚上9点", "一个半小时", "tomorrow at 7am", "an hour and a half"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := Parse(s)
		if err == nil && w.IsZero() {
			t.Errorf("Parse(%q) read an empty wait", s)
		}
		if err == nil && (w.For < 0 || w.For > Max) {
			t.Errorf("Parse(%q) = %s out of range", s, w.For)
		}
		_, _, _ = Todo(s)
		_, _, _ = Lead(s)
	})
}
