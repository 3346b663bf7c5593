package device

// modelApps are the app labels and names AutoGLM-Phone was trained on, per
// package (the first name is the label its reference client reports as the
// current app). They are facts about the model's vocabulary: Launch accepts
// every one of them, and the autoglm request layout reports the label
// (docs/design.md §3). Names already in the built-in table keep their entry.
var modelApps = []struct {
	pkg   string
	names []string
}{
	{"com.tencent.mm", []string{"微信", "WeChat", "wechat"}},
	{"com.tencent.mobileqq", []string{"QQ"}},
	{"com.sina.weibo", []string{"微博"}},
	{"com.taobao.taobao", []string{"淘宝", "淘宝闪购"}},
	{"com.jingdong.app.mall", []string{"京东", "京东秒送"}},
	{"com.xunmeng.pinduoduo", []string{"拼多多"}},
	{"com.xingin.xhs", []string{"小红书"}},
	{"com.douban.frodo", []string{"豆瓣"}},
	{"com.zhihu.android", []string{"知乎"}},
	{"com.autonavi.minimap", []string{"高德地图"}},
	{"com.baidu.BaiduMap", []string{"百度地图"}},
	{"com.sankuai.meituan", []string{"美团"}},
	{"com.dianping.v1", []string{"大众点评"}},
	{"me.ele", []string{"饿了么"}},
	{"com.yek.android.kfc.activitys", []string{"肯德基"}},
	{"ctrip.android.view", []string{"携程"}},
	{"com.MobileTicket", []string{"铁路12306", "12306"}},
	{"com.Qunar", []string{"去哪儿", "去哪儿旅行"}},
	{"com.sdu.didi.psnger", []string{"滴滴出行"}},
	{"tv.danmaku.bili", []string{"bilibili"}},
	{"com.ss.android.ugc.aweme", []string{"抖音"}},
	{"com.smile.gifmaker", []string{"快手"}},
	{"com.tencent.qqlive", []string{"腾讯视频"}},
	{"com.qiyi.video", []string{"爱奇艺"}},
	{"com.youku.phone", []string{"优酷视频"}},
	{"com.hunantv.imgo.activity", []string{"芒果TV"}},
	{"com.phoenix.read", []string{"红果短剧"}},
	{"com.netease.cloudmusic", []string{"网易云音乐"}},
	{"com.tencent.qqmusic", []string{"QQ音乐"}},
	{"com.luna.music", []string{"汽水音乐"}},
	{"com.ximalaya.ting.android", []string{"喜马拉雅"}},
	{"com.dragon.read", []string{"番茄小说", "番茄免费小说"}},
	{"com.kmxs.reader", []string{"七猫免费小说"}},
	{"com.ss.android.lark", []string{"飞书"}},
	{"com.tencent.androidqqmail", []string{"QQ邮箱"}},
	{"com.larus.nova", []string{"豆包"}},
	{"com.gotokeep.keep", []string{"keep"}},
	{"com.lingan.seeyou", []string{"美柚"}},
	{"com.tencent.news", []string{"腾讯新闻"}},
	{"com.ss.android.article.news", []string{"今日头条"}},
	{"com.lianjia.beike", []string{"贝壳找房"}},
	{"com.anjuke.android.app", []string{"安居客"}},
	{"com.hexin.plat.android", []string{"同花顺"}},
	{"com.miHoYo.hkrpg", []string{"星穹铁道", "崩坏：星穹铁道"}},
	{"com.papegames.lysk.cn", []string{"恋与深空"}},
	{"com.android.settings", []string{"AndroidSystemSettings", "Android System Settings", "Android  System Settings", "Android-System-Settings", "Settings"}},
	{"com.android.soundrecorder", []string{"AudioRecorder", "audiorecorder"}},
	{"com.rammigsoftware.bluecoins", []string{"Bluecoins", "bluecoins"}},
	{"com.flauschcode.broccoli", []string{"Broccoli", "broccoli"}},
	{"com.booking", []string{"Booking.com", "Booking", "booking.com", "booking", "BOOKING.COM"}},
	{"com.android.chrome", []string{"Chrome", "chrome", "Google Chrome"}},
	{"com.android.deskclock", []string{"Clock", "clock"}},
	{"com.android.contacts", []string{"Contacts", "contacts"}},
	{"com.duolingo", []string{"Duolingo", "duolingo"}},
	{"com.expedia.bookings", []string{"Expedia", "expedia"}},
	{"com.android.fileexplorer", []string{"Files", "files", "File Manager", "file manager"}},
	{"com.google.android.gm", []string{"gmail", "Gmail", "GoogleMail", "Google Mail"}},
	{"com.google.android.apps.nbu.files", []string{"GoogleFiles", "googlefiles", "FilesbyGoogle"}},
	{"com.google.android.calendar", []string{"GoogleCalendar", "Google-Calendar", "Google Calendar", "google-calendar", "google calendar"}},
	{"com.google.android.apps.dynamite", []string{"GoogleChat", "Google Chat", "Google-Chat"}},
	{"com.google.android.deskclock", []string{"GoogleClock", "Google Clock", "Google-Clock"}},
	{"com.google.android.contacts", []string{"GoogleContacts", "Google-Contacts", "Google Contacts", "google-contacts", "google contacts"}},
	{"com.google.android.apps.docs.editors.docs", []string{"GoogleDocs", "Google Docs", "googledocs", "google docs"}},
	{"com.google.android.apps.docs", []string{"Google Drive", "Google-Drive", "google drive", "google-drive", "GoogleDrive", "Googledrive", "googledrive"}},
	{"com.google.android.apps.fitness", []string{"GoogleFit", "googlefit"}},
	{"com.google.android.keep", []string{"GoogleKeep", "googlekeep"}},
	{"com.google.android.apps.maps", []string{"GoogleMaps", "Google Maps", "googlemaps", "google maps"}},
	{"com.google.android.apps.books", []string{"Google Play Books", "Google-Play-Books", "google play books", "google-play-books", "GooglePlayBooks", "googleplaybooks"}},
	{"com.android.vending", []string{"GooglePlayStore", "Google Play Store", "Google-Play-Store"}},
	{"com.google.android.apps.docs.editors.slides", []string{"GoogleSlides", "Google Slides", "Google-Slides"}},
	{"com.google.android.apps.tasks", []string{"GoogleTasks", "Google Tasks", "Google-Tasks"}},
	{"net.cozic.joplin", []string{"Joplin", "joplin"}},
	{"com.mcdonalds.app", []string{"McDonald", "mcdonald"}},
	{"net.osmand", []string{"Osmand", "osmand"}},
	{"com.Project100Pi.themusicplayer", []string{"PiMusicPlayer", "pimusicplayer"}},
	{"com.quora.android", []string{"Quora", "quora"}},
	{"com.reddit.frontpage", []string{"Reddit", "reddit"}},
	{"code.name.monkey.retromusic", []string{"RetroMusic", "retromusic"}},
	{"com.scientificcalculatorplus.simplecalculator.basiccalculator.mathcalc", []string{"SimpleCalendarPro"}},
	{"com.simplemobiletools.smsmessenger", []string{"SimpleSMSMessenger"}},
	{"org.telegram.messenger", []string{"Telegram"}},
	{"com.einnovation.temu", []string{"temu", "Temu"}},
	{"com.zhiliaoapp.musically", []string{"Tiktok", "tiktok"}},
	{"com.twitter.android", []string{"Twitter", "twitter", "X"}},
	{"org.videolan.vlc", []string{"VLC"}},
	{"com.whatsapp", []string{"Whatsapp", "WhatsApp"}},
}

// ModelHome is the label AutoGLM-Phone knows for the home screen.
const ModelHome = "System Home"

// ModelLabel returns the label AutoGLM-Phone knows for a package: its own
// name for the app, ModelHome for a launcher, or "" when it knows none.
func ModelLabel(pkg string) string {
	if l, ok := modelLabel[pkg]; ok {
		return l
	}
	if e, ok := byPkg[pkg]; ok && e == byName[normName("Launcher")] {
		return ModelHome
	}
	return ""
}

var modelLabel = map[string]string{}

// addModelNames adds the model's names to the lookup tables: a name the
// built-in table lacks maps to the built-in entry of its package, or to a
// new entry for a package the built-in table lacks.
func addModelNames() {
	for _, m := range modelApps {
		if _, ok := modelLabel[m.pkg]; !ok {
			modelLabel[m.pkg] = m.names[0]
		}
		e, ok := byPkg[m.pkg]
		if !ok {
			e = &appEntry{names: m.names, packages: []string{m.pkg}}
			byPkg[m.pkg] = e
		}
		for _, n := range m.names {
			if _, dup := byName[normName(n)]; !dup {
				byName[normName(n)] = e
			}
		}
	}
}
