package modelserver

import "regexp"

// The 把 construction puts the object before the verb (docs/design.md §9):
// "把Wake up闹钟关掉" is "关闭Wake up闹钟". The alarm readers look for the
// verb first, so "把第二个闹钟打开" was asked what time a new alarm should
// ring. An alarm clause is said verb first before it is read.

// rdZhBaAlarmRe is "把 <alarm> <verb>" with the verb at the end.
var rdZhBaAlarmRe = regexp.MustCompile(`^把\s*(.*闹钟.*?)\s*(关掉|关闭|关上|关了|停掉|打开|开启|开开|开了|删掉|删除|删了|去掉)(?:吧|了)?$`)

// zhVerbFirst says an alarm clause in the 把 construction verb first; any
// other clause is returned as it is.
func zhVerbFirst(c string) string {
	m := rdZhBaAlarmRe.FindStringSubmatch(c)
	if m == nil {
		return c
	}
	verb := map[string]string{"关掉": "关闭", "关闭": "关闭", "关上": "关闭", "关了": "关闭", "停掉": "关闭",
		"打开": "打开", "开启": "打开", "开开": "打开", "开了": "打开", "删掉": "删除", "删除": "删除", "删了": "删除", "去掉": "删除"}[m[2]]
	return verb + m[1]
}
