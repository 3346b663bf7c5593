package device

import (
	"context"
	"testing"
	"time"
)

// Benchmarks against the simulator through Debian's adb server. Run with
//
//	go test -run='^$' -bench=. -benchtime=3x ./internal/device
//
// They skip without adb, like the end-to-end test.

func benchDevice(b *testing.B, settle SettlePolicy) (*stack, Device) {
	s := startStack(b)
	d := New(s.client, s.serial, Options{Settle: settle})
	if err := d.Launch(context.Background(), "Settings"); err != nil {
		b.Fatal(err)
	}
	return s, d
}

// BenchmarkScreenshot is one `screencap -p` capture of the 1080x2400
// screen, checked and sized, through the adb server.
func BenchmarkScreenshot(b *testing.B) {
	_, d := benchDevice(b, SettlePolicy{Mode: SettleNone})
	ctx := context.Background()
	var size int
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		shot, err := d.Screenshot(ctx)
		if err != nil || shot.Sensitive {
			b.Fatalf("screenshot: %v %q", err, shot.Reason)
		}
		size = len(shot.PNG)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(size), "png-bytes/op")
}

// BenchmarkActionRoundTrip is one tap sent through the adb server and
// acknowledged, without waiting for the screen.
func BenchmarkActionRoundTrip(b *testing.B) {
	_, d := benchDevice(b, SettlePolicy{Mode: SettleNone})
	ctx := context.Background()
	x, y := center(b, d, "Display")
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if err := d.Tap(ctx, x, y); err != nil {
			b.Fatal(err)
		}
		if err := d.Back(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(2*b.N), "ms/action")
}

// BenchmarkSettleProbe is one capture as the settle wait takes it: raw
// screencap (no PNG encoding on the phone) against screencap -p.
func BenchmarkSettleProbe(b *testing.B) {
	for _, cmd := range []string{"screencap", "screencap -p"} {
		b.Run(cmd, func(b *testing.B) {
			s, _ := benchDevice(b, SettlePolicy{Mode: SettleNone})
			ctx := context.Background()
			var n int
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				out, err := s.client.Exec(ctx, s.serial, cmd)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
			b.ReportMetric(float64(n), "bytes/op")
		})
	}
}

// BenchmarkTenActions compares waiting for the screen to settle with the
// reference's fixed 1 s sleep: each op is 10 taps on the Wi-Fi switch, each
// followed by the wait.
func BenchmarkTenActions(b *testing.B) {
	for _, p := range []SettlePolicy{
		{Mode: SettleWait},
		{Mode: SettleFixed, Fixed: time.Second},
	} {
		b.Run(p.Mode, func(b *testing.B) {
			_, d := benchDevice(b, p)
			ctx := context.Background()
			x, y := center(b, d, "wifi_switch")
			var captures int
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				for range 10 {
					if err := d.Tap(ctx, x, y); err != nil {
						b.Fatal(err)
					}
					captures += d.(Settler).LastSettle().Captures
				}
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/10actions")
			b.ReportMetric(float64(captures)/float64(10*b.N), "captures/action")
		})
	}
}

// BenchmarkBeforeInputLook is what the action journal reads from the phone
// just before each input (docs/design.md §4): the UI tree and the app in
// front. Compare it with BenchmarkActionRoundTrip's cost of the input.
func BenchmarkBeforeInputLook(b *testing.B) {
	_, d := benchDevice(b, SettlePolicy{Mode: SettleNone})
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := d.UITree(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := d.CurrentApp(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/action")
}
