package device

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// appEntry is one app: the names people call it (the first is its display
// name) and the packages it ships as, most common first.
type appEntry struct {
	names    []string
	packages []string
}

// apps is the built-in name → package table. Names are matched after
// normalisation (case, spaces and punctuation ignored).
var apps = []appEntry{
	// The simulator's apps and stock Android, with the packages each
	// vendor ships them under (a Xiaomi phone's Messages is com.android.mms,
	// a Samsung phone's Clock com.sec.android.app.clockpackage, a Pixel's
	// Notes Google Keep; docs/phones.md#skins).
	{[]string{"Launcher", "桌面", "Home screen", "System Home"}, []string{"com.android.launcher3", "com.google.android.apps.nexuslauncher", "com.miui.home", "com.sec.android.app.launcher", "com.huawei.android.launcher"}},
	{[]string{"Settings", "设置", "系统设置"}, []string{"com.android.settings"}},
	{[]string{"Contacts", "联系人", "通讯录"}, []string{"com.android.contacts", "com.google.android.contacts", "com.samsung.android.app.contacts"}},
	{[]string{"Messages", "信息", "短信", "SMS", "Messaging"}, []string{"com.google.android.apps.messaging", "com.android.mms", "com.samsung.android.messaging", "com.android.messaging"}},
	{[]string{"Clock", "时钟", "闹钟", "Alarm", "Alarms"}, []string{"com.google.android.deskclock", "com.android.deskclock", "com.sec.android.app.clockpackage"}},
	{[]string{"Notes", "笔记", "备忘录", "便签", "Memo"}, []string{"com.example.notes", "com.miui.notes", "com.samsung.android.app.notes", "com.google.android.keep", "com.huawei.notepad"}},
	{[]string{"Bank", "银行"}, []string{"com.example.bank"}},
	{[]string{"Phone", "电话", "拨号", "Dialer"}, []string{"com.google.android.dialer", "com.android.dialer"}},
	{[]string{"Camera", "相机", "照相机"}, []string{"com.android.camera2", "com.google.android.GoogleCamera", "com.android.camera"}},
	{[]string{"Gallery", "相册", "图库"}, []string{"com.android.gallery3d", "com.miui.gallery", "com.google.android.apps.photos"}},
	{[]string{"Calendar", "日历"}, []string{"com.google.android.calendar", "com.android.calendar"}},
	{[]string{"Calculator", "计算器"}, []string{"com.google.android.calculator", "com.android.calculator2"}},
	{[]string{"Files", "文件管理", "文件", "File Manager"}, []string{"com.google.android.apps.nbu.files", "com.android.documentsui"}},
	{[]string{"Browser", "浏览器"}, []string{"com.android.browser", "com.android.chrome"}},
	{[]string{"Play Store", "Google Play", "应用商店", "谷歌商店"}, []string{"com.android.vending"}},
	{[]string{"Recorder", "录音机", "Sound Recorder"}, []string{"com.android.soundrecorder", "com.google.android.apps.recorder"}},
	{[]string{"Weather", "天气"}, []string{"com.miui.weather2", "com.huawei.android.totemweather", "com.google.android.apps.weather"}},
	{[]string{"Music", "音乐"}, []string{"com.android.music", "com.miui.player"}},
	{[]string{"Email", "邮件", "电子邮件"}, []string{"com.android.email"}},
	// Google.
	{[]string{"Chrome", "谷歌浏览器"}, []string{"com.android.chrome"}},
	{[]string{"Gmail"}, []string{"com.google.android.gm"}},
	{[]string{"Google Maps", "Maps", "谷歌地图"}, []string{"com.google.android.apps.maps"}},
	{[]string{"YouTube", "油管"}, []string{"com.google.android.youtube"}},
	{[]string{"Google Photos", "Photos"}, []string{"com.google.android.apps.photos"}},
	{[]string{"Google", "Google Search"}, []string{"com.google.android.googlequicksearchbox"}},
	{[]string{"Google Drive", "Drive"}, []string{"com.google.android.apps.docs"}},
	{[]string{"Google Keep", "Keep Notes"}, []string{"com.google.android.keep"}},
	{[]string{"Google Translate", "Translate", "谷歌翻译"}, []string{"com.google.android.apps.translate"}},
	{[]string{"Google Meet", "Meet"}, []string{"com.google.android.apps.tachyon"}},
	{[]string{"YouTube Music"}, []string{"com.google.android.apps.youtube.music"}},
	// Chinese apps.
	{[]string{"WeChat", "微信", "Weixin"}, []string{"com.tencent.mm"}},
	{[]string{"QQ"}, []string{"com.tencent.mobileqq"}},
	{[]string{"Weibo", "微博", "新浪微博"}, []string{"com.sina.weibo"}},
	{[]string{"Taobao", "淘宝", "手机淘宝"}, []string{"com.taobao.taobao"}},
	{[]string{"Tmall", "天猫"}, []string{"com.tmall.wireless"}},
	{[]string{"JD", "京东", "JD.com", "Jingdong"}, []string{"com.jingdong.app.mall"}},
	{[]string{"Pinduoduo", "拼多多"}, []string{"com.xunmeng.pinduoduo"}},
	{[]string{"Alipay", "支付宝"}, []string{"com.eg.android.AlipayGphone"}},
	{[]string{"Meituan", "美团"}, []string{"com.sankuai.meituan"}},
	{[]string{"Meituan Waimai", "美团外卖"}, []string{"com.sankuai.meituan.takeoutnew"}},
	{[]string{"Ele.me", "饿了么", "Eleme"}, []string{"me.ele"}},
	{[]string{"Dianping", "大众点评"}, []string{"com.dianping.v1"}},
	{[]string{"Douyin", "抖音"}, []string{"com.ss.android.ugc.aweme"}},
	{[]string{"Douyin Lite", "抖音极速版"}, []string{"com.ss.android.ugc.aweme.lite"}},
	{[]string{"Kuaishou", "快手"}, []string{"com.smile.gifmaker"}},
	{[]string{"Bilibili", "哔哩哔哩", "B站"}, []string{"tv.danmaku.bili"}},
	{[]string{"Xiaohongshu", "小红书", "RedNote", "RED"}, []string{"com.xingin.xhs"}},
	{[]string{"Zhihu", "知乎"}, []string{"com.zhihu.android"}},
	{[]string{"Baidu", "百度"}, []string{"com.baidu.searchbox"}},
	{[]string{"Baidu Maps", "百度地图"}, []string{"com.baidu.BaiduMap"}},
	{[]string{"Baidu Netdisk", "百度网盘"}, []string{"com.baidu.netdisk"}},
	{[]string{"Amap", "高德地图", "Gaode Map"}, []string{"com.autonavi.minimap"}},
	{[]string{"Tencent Maps", "腾讯地图"}, []string{"com.tencent.map"}},
	{[]string{"DiDi", "滴滴出行", "滴滴"}, []string{"com.sdu.didi.psnger"}},
	{[]string{"Ctrip", "携程旅行", "携程", "Trip.com"}, []string{"ctrip.android.view"}},
	{[]string{"Qunar", "去哪儿旅行", "去哪儿"}, []string{"com.Qunar"}},
	{[]string{"Fliggy", "飞猪旅行", "飞猪"}, []string{"com.taobao.trip"}},
	{[]string{"12306", "铁路12306"}, []string{"com.MobileTicket"}},
	{[]string{"NetEase Cloud Music", "网易云音乐"}, []string{"com.netease.cloudmusic"}},
	{[]string{"QQ Music", "QQ音乐"}, []string{"com.tencent.qqmusic"}},
	{[]string{"Kugou Music", "酷狗音乐"}, []string{"com.kugou.android"}},
	{[]string{"Kuwo Music", "酷我音乐"}, []string{"cn.kuwo.player"}},
	{[]string{"Tencent Video", "腾讯视频"}, []string{"com.tencent.qqlive"}},
	{[]string{"iQIYI", "爱奇艺"}, []string{"com.qiyi.video"}},
	{[]string{"Youku", "优酷", "优酷视频"}, []string{"com.youku.phone"}},
	{[]string{"Mango TV", "芒果TV"}, []string{"com.hunantv.imgo.activity"}},
	{[]string{"Toutiao", "今日头条", "头条"}, []string{"com.ss.android.article.news"}},
	{[]string{"Xigua Video", "西瓜视频"}, []string{"com.ss.android.article.video"}},
	{[]string{"Tencent News", "腾讯新闻"}, []string{"com.tencent.news"}},
	{[]string{"NetEase News", "网易新闻"}, []string{"com.netease.newsapp"}},
	{[]string{"DingTalk", "钉钉"}, []string{"com.alibaba.android.rimet"}},
	{[]string{"Feishu", "飞书", "Lark"}, []string{"com.ss.android.lark"}},
	{[]string{"WeCom", "企业微信", "WeChat Work"}, []string{"com.tencent.wework"}},
	{[]string{"Tencent Meeting", "腾讯会议", "VooV Meeting"}, []string{"com.tencent.wemeet.app"}},
	{[]string{"Xianyu", "闲鱼"}, []string{"com.taobao.idlefish"}},
	{[]string{"Ximalaya", "喜马拉雅"}, []string{"com.ximalaya.ting.android"}},
	{[]string{"Keep"}, []string{"com.gotokeep.keep"}},
	{[]string{"Cainiao", "菜鸟", "菜鸟裹裹"}, []string{"com.cainiao.wireless"}},
	{[]string{"Douban", "豆瓣"}, []string{"com.douban.frodo"}},
	{[]string{"WPS Office", "WPS"}, []string{"cn.wps.moffice_eng"}},
	{[]string{"UC Browser", "UC浏览器"}, []string{"com.UCMobile"}},
	{[]string{"QQ Browser", "QQ浏览器"}, []string{"com.tencent.mtt"}},
	{[]string{"Hema", "盒马"}, []string{"com.wudaokou.hippo"}},
	{[]string{"Vipshop", "唯品会"}, []string{"com.achievo.vipshop"}},
	{[]string{"Dewu", "得物", "Poizon"}, []string{"com.shizhuang.duapp"}},
	{[]string{"Suning", "苏宁易购"}, []string{"com.suning.mobile.ebuy"}},
	{[]string{"Hellobike", "哈啰", "哈啰出行"}, []string{"com.jingyao.easybike"}},
	{[]string{"Tencent Docs", "腾讯文档"}, []string{"com.tencent.docs"}},
	{[]string{"QQ Mail", "QQ邮箱"}, []string{"com.tencent.androidqqmail"}},
	{[]string{"China Merchants Bank", "招商银行"}, []string{"cmb.pb"}},
	{[]string{"Tencent Games", "王者荣耀", "Honor of Kings"}, []string{"com.tencent.tmgp.sgame"}},
	// International apps.
	{[]string{"WhatsApp"}, []string{"com.whatsapp"}},
	{[]string{"Telegram"}, []string{"org.telegram.messenger"}},
	{[]string{"Signal"}, []string{"org.thoughtcrime.securesms"}},
	{[]string{"Facebook", "脸书"}, []string{"com.facebook.katana"}},
	{[]string{"Messenger"}, []string{"com.facebook.orca"}},
	{[]string{"Instagram"}, []string{"com.instagram.android"}},
	{[]string{"X", "Twitter", "推特"}, []string{"com.twitter.android"}},
	{[]string{"TikTok"}, []string{"com.zhiliaoapp.musically"}},
	{[]string{"Snapchat"}, []string{"com.snapchat.android"}},
	{[]string{"LinkedIn", "领英"}, []string{"com.linkedin.android"}},
	{[]string{"Reddit"}, []string{"com.reddit.frontpage"}},
	{[]string{"Discord"}, []string{"com.discord"}},
	{[]string{"Slack"}, []string{"com.Slack"}},
	{[]string{"Zoom"}, []string{"us.zoom.videomeetings"}},
	{[]string{"Microsoft Teams", "Teams"}, []string{"com.microsoft.teams"}},
	{[]string{"Outlook"}, []string{"com.microsoft.office.outlook"}},
	{[]string{"Microsoft Word", "Word"}, []string{"com.microsoft.office.word"}},
	{[]string{"Microsoft Excel", "Excel"}, []string{"com.microsoft.office.excel"}},
	{[]string{"Spotify"}, []string{"com.spotify.music"}},
	{[]string{"Netflix"}, []string{"com.netflix.mediaclient"}},
	{[]string{"Amazon", "亚马逊"}, []string{"com.amazon.mShop.android.shopping"}},
	{[]string{"eBay"}, []string{"com.ebay.mobile"}},
	{[]string{"AliExpress", "速卖通"}, []string{"com.alibaba.aliexpresshd"}},
	{[]string{"Temu"}, []string{"com.einnovation.temu"}},
	{[]string{"Shein"}, []string{"com.zzkko"}},
	{[]string{"Uber"}, []string{"com.ubercab"}},
	{[]string{"Lyft"}, []string{"me.lyft.android"}},
	{[]string{"Airbnb", "爱彼迎"}, []string{"com.airbnb.android"}},
	{[]string{"Booking.com", "Booking"}, []string{"com.booking"}},
	{[]string{"PayPal"}, []string{"com.paypal.android.p2pmobile"}},
	{[]string{"Duolingo", "多邻国"}, []string{"com.duolingo"}},
	{[]string{"Pinterest"}, []string{"com.pinterest"}},
	{[]string{"LINE"}, []string{"jp.naver.line.android"}},
	{[]string{"Viber"}, []string{"com.viber.voip"}},
	{[]string{"Skype"}, []string{"com.skype.raider"}},
	{[]string{"Waze"}, []string{"com.waze"}},
	{[]string{"Shazam"}, []string{"com.shazam.android"}},
	{[]string{"Notion"}, []string{"notion.id"}},
	{[]string{"Evernote", "印象笔记"}, []string{"com.evernote", "com.yinxiang"}},
	{[]string{"Dropbox"}, []string{"com.dropbox.android"}},
	{[]string{"Firefox", "火狐浏览器"}, []string{"org.mozilla.firefox"}},
	{[]string{"Microsoft Edge", "Edge"}, []string{"com.microsoft.emmx"}},
	{[]string{"Opera"}, []string{"com.opera.browser"}},
	{[]string{"Brave"}, []string{"com.brave.browser"}},
	{[]string{"ChatGPT"}, []string{"com.openai.chatgpt"}},
	{[]string{"Threads"}, []string{"com.instagram.barcelona"}},
	{[]string{"Twitch"}, []string{"tv.twitch.android.app"}},
	{[]string{"SoundCloud"}, []string{"com.soundcloud.android"}},
	{[]string{"Strava"}, []string{"com.strava"}},
	{[]string{"Trello"}, []string{"com.trello"}},
	{[]string{"Todoist"}, []string{"com.todoist"}},
	{[]string{"Microsoft Authenticator", "Authenticator"}, []string{"com.azure.authenticator"}},
	{[]string{"ADB Keyboard", "ADBKeyboard"}, []string{"com.android.adbkeyboard"}},
}

// normName folds a name for matching: lower case, letters and digits only
// (Chinese characters are letters and stay).
func normName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	byName = map[string]*appEntry{}
	byPkg  = map[string]*appEntry{}
)

func init() {
	for i := range apps {
		e := &apps[i]
		for _, n := range e.names {
			if _, dup := byName[normName(n)]; !dup {
				byName[normName(n)] = e
			}
		}
		for _, p := range e.packages {
			if _, dup := byPkg[p]; !dup {
				byPkg[p] = e
			}
		}
	}
	addModelNames()
}

// LookupApp returns the packages the built-in table knows for an app name
// (English or Chinese, case and spacing ignored), most common first.
func LookupApp(name string) ([]string, bool) {
	e, ok := byName[normName(name)]
	if !ok {
		return nil, false
	}
	return slices.Clone(e.packages), true
}

// AppName returns the display name of a package from the built-in table,
// or "" when the table does not know it.
func AppName(pkg string) string {
	if e, ok := byPkg[pkg]; ok {
		// A package shared by two entries (Chrome as the browser) keeps
		// the entry where it is listed first.
		return e.names[0]
	}
	return ""
}

// AppNames returns the display names of every app in the table, sorted.
func AppNames() []string {
	out := make([]string, 0, len(apps))
	for _, e := range apps {
		out = append(out, e.names[0])
	}
	sort.Strings(out)
	return out
}

// looksLikePackage reports whether s is written like a package name.
func looksLikePackage(s string) bool {
	if !strings.Contains(s, ".") || strings.ContainsAny(s, " \t/") {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for _, r := range part {
			if !(r == '_' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
				return false
			}
		}
	}
	return true
}

// suggest lists names close to an unknown app name: table names and the
// installed packages' last segments that contain it, are contained in it,
// or are within a small edit distance.
func suggest(name string, installed []string) []string {
	q := normName(name)
	if q == "" {
		return nil
	}
	type cand struct {
		label string
		score int
	}
	seen := map[string]bool{}
	var cs []cand
	consider := func(label, key string) {
		if key == "" || seen[label] {
			return
		}
		score := -1
		switch {
		case strings.Contains(key, q) || strings.Contains(q, key) && len([]rune(key)) >= 2:
			score = 0
		default:
			d := editDistance(q, key)
			limit := 1 + len([]rune(q))/4
			if d <= limit {
				score = d
			}
		}
		if score >= 0 {
			seen[label] = true
			cs = append(cs, cand{label, score})
		}
	}
	for _, e := range apps {
		for _, n := range e.names {
			consider(e.names[0], normName(n))
		}
	}
	for _, p := range installed {
		label := AppName(p)
		if label == "" {
			label = p
		}
		consider(label, normName(p[strings.LastIndexByte(p, '.')+1:]))
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score < cs[j].score
		}
		return cs[i].label < cs[j].label
	})
	var out []string
	for _, c := range cs {
		if len(out) == 5 {
			break
		}
		out = append(out, c.label)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
