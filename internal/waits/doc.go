// Package waits reads the waits people and models write: a duration ("20
// minutes", "1h30m", "half an hour", "20分钟", "半小时") or a time of day
// ("21:00", "9pm", "晚上9点", "下午3点半"), in a todo that is only a wait
// ("Wait until 21:00", "等待20分钟") or at the head of a goal ("at 21:00,
// open Settings", "in 20 minutes open Settings", "20分钟后打开设置"). It also
// turns a time of day into an instant in the user's time zone. Everything
// here is pure (no clock, no I/O besides time.LoadLocation), so workflow
// code may call the readers (docs/design.md §7).
package waits
