# Topluluklar: bağlı hesaplar, puanlar, merdivenler, turnuvalar.

link-malformed = Bu bir bağlantı kodu değil: kodlar ABCD-EFGH gibi 8 harf ve rakamdır.
link-unknown = Bu bağlantı kodunu tanımıyorum: kodu kontrol et ya da başladığın platformda yenisini iste.
link-expired = Bu bağlantı kodunun süresi doldu (kodlar 10 dakika geçerlidir); yenisini iste.
link-used = Bu bağlantı kodu zaten kullanıldı; yenisini iste.
link-same-account = Kodu, onu üreten hesapta değil, öbür platformdaki hesabında yaz.
link-same-platform = İki hesap da aynı platformda; bir kod farklı platformlardaki hesapları bağlar.
link-already = Bu hesaplar zaten bağlı.
link-two-accounts = { $platform } üzerinde zaten bağlı bir hesabın var; başkasını bağlamak için önce onun bağını kopar.
link-histories-meet = Bu hesaplar birbiriyle oynamış ya da aynı merdivende veya turnuvada yer alıyor; birleştirilemezler.
link-not-linked = Bu hesap başka hiçbir hesaba bağlı değil.
link-unknown-account = Bu hesap botu henüz kullanmadı.
link-code = Bağlantı kodun { $code }. Öbür platformunda { $minutes } dakika içinde bana özel mesajla { $p }link { $code } yaz; kod bir kez çalışır. Kimseyle paylaşma: onu kullanan, hesabını seninkine katar.
link-not-here = Bağlantı kodları yalnızca bana özel mesajla yazılır; orada başkası okumaz. Bu kodu buradakiler görmüş olabilir, bu yüzden artık geçersiz: başladığın platformda { $p }link ile yeni bir kod al ve bana özel mesajla gönder.
link-done = Bağlandı: bu { $platform } hesabın ile öbür hesabın artık bütün oyunlarıyla tek oyuncu: { $name }. { $p }unlink bunu geri alır.
unlink-done = Bağ koparıldı: bu { $platform } hesabı yeniden kendi başına bir oyuncu; ortak geçmiş öbür hesaplarında kalır.

player-fallback = oyuncu { $id }
ratings-changed = Puanlar: { $white }, { $black }.
ratings-no-move = Puanlanmadı: oyun, iki taraf da hamle yapmadan bitti.

# Puanlar. $scope community (bu topluluğun puanları) ya da global (genel).
rating-record = { $count } oyun: +{ $wins } ={ $draws } −{ $losses }
rating-none = { $name } adlı oyuncunun { $scope ->
        [community] bu toplulukta
       *[global] hiçbir yerde
    } henüz puanlı { $variant } oyunu yok.
rating-none-any = { $name } adlı oyuncunun { $scope ->
        [community] bu toplulukta
       *[global] hiçbir yerde
    } henüz hiçbir varyantta puanlı oyunu yok.
rating-not-met = { $name } adlı kişiyle henüz tanışmadım: benimle hiç oyun oynamadı, bu yüzden puanı yok.
rating-not-met-self = Benimle henüz hiç oyun oynamadın, bu yüzden puanın yok.
rating-line = { $name } — { $variant }, { $scope ->
        [community] bu toplulukta
       *[global] genel
    }: { $rating } (±{ $deviation }), { $record }.
rating-global = Genel puan { $rating }.
rating-provisional = (? = geçici: emin olmak için henüz oyun sayısı az.)
leaderboard-empty = { $scope ->
        [community] Bu toplulukta
       *[global] Hiçbir yerde
    } henüz puanlı { $variant } oyunu yok.
leaderboard-rated-variants = Buradaki puanlı oyunlar şu varyantlarda: { $list }; ör. { $example } yaz.
leaderboard-head = { $variant } sıralaması, { $scope ->
        [community] bu toplulukta
       *[global] genel
    }:
leaderboard-nobody = Henüz kimsenin puanı kesinleşmedi (gereken oyun sayısına ulaşılmadı).
leaderboard-provisional-place = geçici
leaderboard-place = { $count } kişi içinde { $place }. sıra
leaderboard-place-many = { $count } kişiden fazlası içinde { $place }. sıra
leaderboard-place-below = ilk { $count } sıranın dışında
leaderboard-you = Sen: { $name } { $rating } ({ $place }).
leaderboard-provisional = Geçici: { $names }.
leaderboard-title = { $variant } sıralaması
leaderboard-subtitle = { $scope ->
        [community] bu topluluk
       *[global] genel
    }
leaderboard-alt = { $title }, { $subtitle }: sıralamada { $count } oyuncu.
leaderboard-alt-many = { $title }, { $subtitle }: sıralamada { $count } oyuncudan fazlası.
history-none = { $whose ->
        [own] { $scope ->
            [community] Bu toplulukta
           *[global] Hiçbir yerde
        } henüz puanlı { $variant } oyunun yok.
       *[other] { $name } adlı oyuncunun { $scope ->
            [community] bu toplulukta
           *[global] hiçbir yerde
        } henüz puanlı { $variant } oyunu yok.
    }
history-line = { $name } adlı oyuncunun { $scope ->
        [community] bu topluluktaki
       *[global] genel
    } { $variant } puanı: { $count } puanlı oyunda { $first } → { $last }; en yüksek { $high }.
history-alt = Grafik: { $text }

# Merdivenler.
that-player = o oyuncu
ladder-not-on = Bu merdivende değilsin; önce katıl.
ladder-player-not-on = { $name } bu merdivende değil.
ladder-already-on = Bu merdivende zaten { $place }. sıradasın.
ladder-not-above = Yalnızca senden yukarıdaki oyunculara meydan okuyabilirsin: { $name } { $theirs }. sırada, sen { $yours }. sıradasın.
ladder-too-far = En çok { $max } basamak yukarıya meydan okuyabilirsin: { $name } senden { $distance } basamak yukarıda.
ladder-you-have-open = { $name } ile zaten açık bir merdiven meydan okuman var; yenisine başlamadan önce onu bitir.
ladder-they-have-open = { $name } adlı oyuncunun zaten açık bir merdiven meydan okuması var; o bitince yeniden dene.
ladder-no-challenge = Bu merdivende sana kimse meydan okumadı.
ladder-no-challenge-own = Bu merdivende sana kimse meydan okumadı. Yanıt bekleyen bir meydan okuman var (rakibin: { $name }); { $p }ladder withdraw ile geri çekebilirsin.
ladder-nothing-to-withdraw = Geri çekebileceğin, yanıt bekleyen bir merdiven meydan okuman yok.
ladder-unknown-challenge = Bu sezon { $id } numaralı bir merdiven meydan okuması yok.
ladder-not-played = { $id } numaralı merdiven meydan okuması oynanmıyor, bu yüzden sonuç girilemez.
ladder-deadline-passed = Bu meydan okumanın kabul süresi geçti: hükmen yenilgi sayılır.
ladder-unknown-event = Bu sezon { $id } numaralı bir merdiven sonucu yok; her sonuç numarasıyla duyurulur, örneğin (merdiven sonucu 2).
ladder-already-undone = { $id } numaralı merdiven sonucu zaten geri alındı.
ladder-reason-required = Sonucun neden geri alındığını söyle; sebep geçmişte saklanır.
ladder-corrupt = Kayıtlı merdiven tutarsız: { $detail }
n-days = { $count } gün
n-places = { $count } basamak
ladder-no-community = Merdivenler bir topluluğa (sunucu ya da alan) aittir; bu sohbet hiçbirinde değil.
interaction-only-no-ladders = Merdivenler burada kullanılamaz: bu sohbete yalnızca senin komutlarınla katılıyorum, oysa merdivenin sıralaması ve meydan okumaları bir komut olmadan gönderilir. Merdiven oynamak için beni bir sunucuya ekle.
interaction-only-no-tournaments = Turnuvalar burada kullanılamaz: bu sohbete yalnızca senin komutlarınla katılıyorum, oysa turnuvanın turları ve eşleşmeleri bir komut olmadan gönderilir. Turnuva düzenlemek için beni bir sunucuya ekle.
ladder-admins-only = Kusura bakma, merdivende bunu yalnızca topluluğun yöneticileri yapabilir.
ladder-none-yet = Bu topluluğun henüz merdiveni yok; bir yönetici { $p }ladder create chess ile açabilir.
ladder-exists = Bu topluluğun zaten bir { $variant } merdiveni var.
ladder-created = { $variant } merdiveni açıldı: hamle başına { $days }, en çok { $reach } yukarıya meydan okuma, kabul için { $wait }. { $p }ladder join ile katıl.
ladder-joined = { $name }, { $ladder } merdivenine { $place }. sıradan katıldı.
ladder-left = { $name }, { $ladder } merdiveninden ayrıldı.
ladder-left-forfeit = { $name } ile { $other } arasındaki açık merdiven meydan okumasını { $name } kaybetmiş sayılır. { $effect }
ladder-left-withdrawn = { $name } adlı oyuncunun { $other } adlı oyuncuya meydan okuması geri çekildi.
ladder-remove-whom = Kimin çıkarılacağını söyle, ör. { $p }ladder remove @bob.
ladder-removed = { $name }, bir yönetici tarafından { $ladder } merdiveninden çıkarıldı.
ladder-undone = { $ladder } merdiveninin { $event } numaralı sonucu ({ $what }) bir yönetici tarafından geri alındı (sebep: { $reason }).
ladder-undone-what = { $challenger } – { $challenged }: { $result ->
        [challenger] { $challenger } kazandı
        [challenged] { $challenged } kazandı
        [challenger-forfeit] { $challenged } hükmen kaybetti
        [challenged-forfeit] { $challenger } hükmen kaybetti
       *[draw] berabere
    }
ladder-undone-game-stays = Oyun #{ $id } ve puan değişiklikleri olduğu gibi kalıyor; sonucu yalnızca merdiven unutuyor.
ladder-season-closed = { $ladder } merdiveninin { $number }. sezonu kapandı ve son sıralaması arşivlendi ({ $p }ladder season { $number }). { $next }. sezon aynı sırayla açılıyor; açık merdiven meydan okumaları iptal edildi.
ladder-no-season = { $ladder } merdiveninin kapanmış { $number }. sezonu yok; şu an { $current }. sezonda.
ladder-season-head = { $ladder } merdiveni, { $number }. sezon (kapandı), son sıralama:
ladder-season-empty = Merdivende kimse yoktu.
ladder-no-such = Bu topluluğun { $variant } merdiveni yok.
ladder-which = Bu topluluğun birden çok merdiveni var ({ $names }); varyantı ekle.
ladder-standings-head = { $ladder } merdiveni, { $season }. sezon (hamle başına { $days }, en çok { $reach } yukarıya meydan okuma, kabul için { $wait }):
ladder-state-game = oyun #{ $id }
ladder-state-accepted = kabul edildi
ladder-state-waiting = yanıt bekliyor
ladder-standings-challenge = { " " }— { $dir ->
        [challenges] meydan okuduğu
       *[challenged] meydan okuyan
    } { $name } ({ $state })
ladder-standings-empty = Henüz merdivende kimse yok: { $p }ladder join { $variant }.
ladder-challenge-whom = Kime meydan okuduğunu söyle, ör. { $p }ladder challenge @bob.
ladder-challenge = Merdiven meydan okuması #{ $id }: { $name } ({ $place }. sıra), { $variant } merdiveninde { $other } ({ $other_place }. sıra) adlı oyuncuya meydan okuyor. { $other }: { $wait } içinde { $p }accept #{ $id } ya da { $p }decline #{ $id }; reddetmek ya da yanıt vermemek { $name } için galibiyet sayılır.
ladder-withdrawn = { $name }, { $ladder } merdiven meydan okumasını geri çekti.
ladder-declined = { $name }, { $other } adlı oyuncunun { $ladder } merdiven meydan okumasını reddetti; bu hükmen yenilgi sayılır. { $effect }
ladder-accepted = { $name }, { $other } adlı oyuncunun { $ladder } merdiven meydan okumasını kabul etti.
ladder-climbed = { $name }, { $place }. sırayı { $other } adlı oyuncudan aldı.
ladder-unchanged = Sıralama olduğu gibi kalıyor.
ladder-note-draw = beraberlik hiçbir şeyi değiştirmez.
ladder-note-unchanged = sıralama olduğu gibi kalıyor.
ladder-note = Merdiven: { $line }
ladder-result-tag = (merdiven sonucu { $event })
ladder-forfeit = Merdiven: { $name }, { $other } adlı oyuncunun { $ladder } merdiven meydan okumasını zamanında kabul etmedi; bu hükmen yenilgi sayılır. { $effect }

# Turnuvalar.
swiss-too-few = İsviçre sistemi turnuva için en az iki oyuncu gerekir.
swiss-duplicate = Bir oyuncu iki kez kayıtlı.
swiss-too-many-rounds = { $rounds } tur çok fazla: bu kadar oyuncuyla en çok { $max } tur olabilir.
swiss-round-incomplete = { $round }. tur henüz bitmedi: bir sonraki tur, bütün oyunları bitince eşleştirilir.
swiss-finished = Bütün turlar oynandı: turnuva bitti.
swiss-unknown-player = Bir turda, turnuvada olmayan bir oyuncu geçiyor.
swiss-no-pairing = Aynı iki oyuncuyu ikinci kez eşleştirmeden ya da renk dengesini bozmadan eşleştirme yapılamıyor: turnuva burada bitmek zorunda.
tournament-unknown = Böyle bir turnuva yok.
tournament-not-registering = Bu turnuvanın kaydı kapandı.
tournament-already-registered = Bu turnuvaya zaten kayıtlısın.
tournament-not-registered = Bu turnuvaya kayıtlı değilsin.
tournament-too-few = Bir turnuvanın başlaması için en az iki oyuncu gerekir.
tournament-seeds-mismatch = Sıralama listesi her kayıtlı oyuncuyu bir kez içermeli.
tournament-not-running = Bu turnuva sürmüyor.
tournament-nothing-to-pair = Lig usulü turnuvanın bütün turları baştan bellidir.
tournament-unknown-board = { $round }. turda { $board }. masa yok.
tournament-already-decided = { $round }. turun { $board }. masasındaki oyunun zaten bir sonucu var.
n-players = { $count } oyuncu
system-roundrobin = lig usulü
system-double = çift devreli lig usulü
system-swiss = İsviçre sistemi, { $rounds } tur
system-swiss-auto = İsviçre sistemi (tur sayısı oyuncu sayısına göre belirlenir)
system-swiss-plain = İsviçre sistemi
in-minutes = { $count } dakika içinde
in-hours = { $count } saat içinde
in-days-hours = { $days } gün{ $hours ->
        [0] {""}
       *[other] { " " }{ $hours } saat
    } içinde
result-playing = oynanıyor
tournament-no-community = Turnuvalar bir topluluğa (sunucu ya da alan) aittir; bu sohbet hiçbirinde değil.
tournament-admins-only = Kusura bakma, turnuvayı yalnızca topluluğun yöneticileri açabilir, başlatabilir ya da iptal edebilir.
tournament-rounds-so-far = { $name }: şimdiye kadar { $count } tur var.
tournament-default-name = { $variant } { $kind ->
        [swiss] İsviçre Turnuvası
       *[roundrobin] Lig Turnuvası
    }
tournament-start-by-hand = Bir yönetici { $p }tournament #{ $id } start ile başlatır.
tournament-start-by-itself = Kayıt { $when } kapanır ve turnuva kendiliğinden başlar (bir yönetici { $p }tournament #{ $id } start ile daha erken başlatabilir).
tournament-created = Turnuva #{ $id }, { $name }: { $variant }, { $system }, hamle başına { $days }. Katılmak için { $p }tournament #{ $id } join. { $start }
button-join = Katıl
tournament-joined = { $name } katıldı: { $tournament } (#{ $id }); { $players } kayıtlı.
tournament-leave-running = { $tournament } (#{ $id }) başladı: şimdi ayrılmak çekilmek demektir. Bitmemiş oyunlarını kaybedersin ve sonraki turlarda eşleştirilmezsin. Çekilmek için { $p }tournament #{ $id } withdraw yaz.
tournament-left = { $name } ayrıldı: { $tournament } (#{ $id }).
tournament-started = { $tournament } başladı.
tournament-cannot-cancel = { $tournament } başladı; süren bir turnuva iptal edilemez. Turnuva, turları oynanınca biter. Bırakmak isteyen oyuncu { $p }tournament #{ $id } withdraw yazar (kalan oyunları hükmen kaybedilir, sonraki turlarda eşleştirilmez).
tournament-begun = { $tournament } (#{ $id }) başladı: kaydı kapandı.
tournament-cannot-cancel-over = { $tournament } bitti; iptal edilecek bir şey kalmadı.
tournament-cancelled = Turnuva #{ $id } ({ $tournament }) bir yönetici tarafından iptal edildi.
tournament-no-such = Bu topluluğun #{ $id } numaralı turnuvası yok.
tournament-none = #{ $id } numaralı turnuva yok.
tournament-none-open = Bu toplulukta kaydı açık turnuva yok; liste için { $p }tournament.
tournament-none-yet = Bu topluluğun henüz turnuvası yok; bir yönetici { $p }tournament create swiss capatomic ile açabilir.
tournament-which = Burada birden çok turnuva var ({ $names }); hangisi olduğunu söyle, ör. { $example }.
tournaments-head = Turnuvalar:
tournament-state-signup-until = kayıt açık, şimdiye kadar { $players }, { $when } başlıyor
tournament-state-signup = kayıt açık, şimdiye kadar { $players }
tournament-state-running = sürüyor, { $players }
tournament-state-finished = bitti
tournaments-details = Ayrıntılar: { $p }tournament #N.
tournament-head = Turnuva #{ $id } { $name }: { $variant }, { $system }, hamle başına { $days }.
tournament-registration-until = Kayıt açık; turnuva { $when } başlıyor.
tournament-registration-by-hand = Kayıt açık; bir yönetici başlatacak.
tournament-players-head = Oyuncular ({ $count }):
tournament-nobody-yet = Henüz kimse yok: { $p }tournament #{ $id } join.
standings-head = { $kind ->
        [final] Son puan durumu
       *[current] Puan durumu
    }:
round-head = { $number }. tur (toplam { $total }):
round-game = { " " }(oyun #{ $id })
round-board = Masa { $board }: { $white } – { $black }{ $game }: { $result }
round-bye = Bay: { $name } ({ $points } puan{ $one ->
        [one] {""}
       *[other] {""}
    })
tournament-result = Turnuva #{ $id } { $name }: { $round }. turun { $board }. masasının sonucu kesinleşti
tournament-result-last = ; bu son oyundu, son puan durumu aşağıda.
tournament-result-next = ; { $round }. tur tamamlandı ve { $next }. tur eşleştirildi.
tournament-not-started = Turnuva #{ $id } { $name }: kayıt { $players } ile kapandı, bu yüzden başlamadı ({ $reason }). Daha çok oyuncu katılınca bir yönetici başlatabilir ya da iptal edebilir.
tournament-starts = Turnuva #{ $id } { $name }, { $players } ile başlıyor. Oyunlarını burada oyna ({ $p }move #N ...); hamle başına { $days }.
tournament-rounds-cut = İstenen { $asked } tur yerine { $rounds } tur oynanacak: { $players } oyuncuyla, aynı iki oyuncu ikinci kez karşılaşmadan daha fazla tur oynanamaz.
tournament-round-paired = Turnuva #{ $id } { $name }: { $round }. tur eşleştirildi.
tournament-bombs-first = Gizli bomba satrancı: her oyuncu her oyunundaki ilk hamlesinden önce gizli bir bomba seçer; her oyuncuya her oyunu için özel mesaj gönderdim.
tournament-setup-first = { $variant }: her oyun kurulum aşamasıyla başlar; önce Siyah, sonra Beyaz seçer ({ $p }swap K b, { $p }swap Q h, ... ya da { $p }noswap), her biri için { $days }; zamanında seçmeyen taraf değişim yapmamış sayılır.
tournament-over = Turnuva #{ $id } { $name } bitti. Son puan durumu:
tournament-congratulations = Tebrikler, { $name }!

# Puan resimlerine çizilen sözcükler.
picture-player = OYUNCU
picture-rating = PUAN
picture-games = OYUN
picture-record = G / B / M
picture-no-established = Henüz kesinleşmiş puan yok
picture-provisional-section = Geçici
picture-no-games = Henüz puanlı oyun yok
picture-provisional = geçici
picture-month = { $month ->
        [jan] Oca
        [feb] Şub
        [mar] Mar
        [apr] Nis
        [may] May
        [jun] Haz
        [jul] Tem
        [aug] Ağu
        [sep] Eyl
        [oct] Eki
        [nov] Kas
       *[dec] Ara
    }
tournament-rounds-all = { $name }: { $over ->
        [yes] { $count } tur oynandı
       *[no] { $count } tur var
    }; tur 1{ $count ->
        [one] {""}
       *[other] { " " }ile { $count } arası
    }.
tournament-already-withdrawn = Bu turnuvadan zaten çekildin.
tournament-not-in = { $tournament } (#{ $id }) turnuvasında oynamıyorsun.
tournament-over-leave = { $tournament } (#{ $id }) bitti; ayrılacak bir şey kalmadı.
tournament-in-none = Bu topluluğun açık ya da süren hiçbir turnuvasında oynamıyorsun.
button-tournament-withdraw = Çekil
tournament-withdrew = { $name }, #{ $id } { $tournament } turnuvasından çekiliyor.
tournament-withdrew-void = { $name } oyunlarının yarısından azını bitirdi; FIDE kuralına göre sonuçları puan durumunda sayılmaz (çapraz tablo onları gösterir).
tournament-withdrew-counted = { $name } oyunlarının en az yarısını bitirdi: sonuçları geçerli, kalan oyunları hükmen kaybedilir.
tournament-withdrew-swiss = { $name } aldığı puanları korur; sonraki turlarda eşleştirilmez.
tournament-ended-early = ; başka tur eşleştirilemiyor (kalan oyuncular çok az ya da hepsi karşılaştı), bu yüzden son tur { $round }. turdu: final puan durumu geliyor.
standings-withdrawn = çekildi
standings-void = çekildi, sonuçlar sayılmaz
crosstable-head = #{ $id } { $name } turnuvası: çapraz tablo (+ ve − hükmen kazanılan ve kaybedilen, iki taraf da hamle yapmadan biten oyunlar; · süren bir oyun).
crosstable-not-started = { $name } (#{ $id }) daha başlamadı: gösterilecek oyun yok.
crosstable-cut = { $count } oyuncunun ilk { $shown } tanesi gösteriliyor.
crosstable-cut-web = { $count } oyuncunun ilk { $shown } tanesi gösteriliyor; tablonun tamamı topluluğun sayfasında: { $url }
crosstable-points = Puan
crosstable-bye = Bay
