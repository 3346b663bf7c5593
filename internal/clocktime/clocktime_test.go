package clocktime

import "testing"

func TestHour24(t *testing.T) {
	for _, c := range []struct {
		h    int
		mark string
		want int
	}{
		{7, "pm", 19}, {7, "PM", 19}, {7, "p.m.", 19}, {7, "p", 19}, {12, "pm", 12}, {19, "pm", 19},
		{7, "am", 7}, {12, "am", 0}, {12, "A.M.", 0}, {12, "a", 0},
		{7, "", 7}, {12, "", 12}, {0, "", 0}, {23, "", 23}, {7, "o'clock", 7}, {12, "h", 12},
	} {
		if got := Hour24(c.h, c.mark); got != c.want {
			t.Errorf("Hour24(%d, %q) = %d, want %d", c.h, c.mark, got, c.want)
		}
	}
}
