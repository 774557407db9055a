# Oyunlar: hamleler, sıra, sonuçlar. Hamle gösterimi her dilde İngilizce harflerle kalır
# (K şah, Q vezir, R kale, B fil, N at, A arkfil, C şansölye, M füze).

game-move-error = Oyun #{ $id }: { $error }
game-not-yours = Oyun #{ $id } senin değil: bu oyunda oynamıyorsun.
game-none = #{ $id } numaralı oyun yok.
game-not-here = Oyun #{ $id } bu sohbette değil.
game-fen = Oyun #{ $id }: { $fen }
no-games-yet = Henüz hiç oyunun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
no-game-in-chat = Bu sohbette oyunun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
no-game-here = Burada oyunun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
no-game-in-progress = Burada süren bir oyunun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
comma-list = { $head }, { $tail }
comma-list-none = {""}
game-against = #{ $id } ({ $other } ile, sen { $color ->
        [white] beyaz
       *[black] siyah
    })
games-which = Burada { $count } oyunun var ({ $ids }); numarasını ekle, ör. { $example }.
position-changed = Oyun #{ $id }: bu arada konum değişti (önce başka bir hamle geldi). { $p }board ile tahtaya bakıp yeniden dene.
move-not-playing = Oyun #{ $id }, { $white } ile { $black } arasında; hamleyi yalnızca onlar yapar.
bare-which-game = Burada hamleni bekleyen birden çok oyunun var ({ $games }); yalın bir hamle hangisi için olduğunu söylemez: oyunu belirt, örneğin { $example }
not-your-turn-anywhere = Buradaki oyunlarının hiçbirinde sıra sende değil.
your-turn-which = Burada { $count } oyunda sıra sende ({ $ids }); hangisi olduğunu söyle: { $p }move { $first } { $text }.
game-in-setup = Oyun #{ $id } hâlâ dizilim aşamasında: { $p }swap ya da { $p }noswap ile seçimini yap.
game-over-already = Oyun #{ $id } bitti ({ $result ->
        [none] sona erdi
       *[other] { $result }
    }); yenisini { $p }challenge ile başlat.
game-aborted-already = Oyun #{ $id } iptal edildi.
not-your-turn = #{ $id } numaralı oyunda sıra sende değil: sıra { $other } ({ $color }) oyuncusunda.
move-not-legal = Oyun #{ $id }: bu hamle burada kurallara uygun değil.
move-raced = Oyun #{ $id }: hamlen ulaşmadan konum değişti (önce başka bir hamle geldi). Tahtaya bakıp yeniden dene.
move-played = Oyun #{ $id }: { $label }, oynayan { $name }.
blast-removes = { $square } karesindeki patlamada giden taşlar: { $pieces }.
blast-nothing = { $square } karesindeki patlamada hiçbir taş gitmedi.
blast-piece = { $piece } ({ $color })
blast-irradiated = { $square } karesi artık kalıcı olarak radyasyonlu.
death-match-kingless = İki şah da gitti; oyun şahsız sürüyor (artık şah çekilmez): taşı ve piyonu kalmayan taraf kaybeder; tahtayı boşaltan bir patlama ya da sıradaki tarafın yasal hamlesinin olmaması beraberliktir.
to-move = Sıra { $name } ({ $color }) oyuncusunda.
check = Şah!
days-to-reply = Yanıt için { $count } gün var.
your-move-notice = { $name } ile oynadığın #{ $id } numaralı oyunda ({ $variant }) sıra sende: { $label }. Yanıt için { $days } gün var.
game-over-win = { $head }: { $result } — { $why ->
        [king-exploded] { $name }, rakibin şahını patlatarak kazandı
        [no-material-left] { $name } kazandı: rakibin hiç taşı kalmadı
        [checkmate] { $name } mat ederek kazandı
        [resignation] { $name } kazandı: rakibi oyunu terk etti
        [time-forfeit] { $name } kazandı: rakibinin süresi doldu
        [forfeit] { $name } hükmen kazandı
       *[other] { $name } kazandı ({ $reason })
    }.
game-over-draw = { $head }: { $result } — { $reason } ile berabere.
ai-no-move = Oyun #{ $id }: capabot bir hamle bulamadı (bu sürümde yapay zekâ yok mu?). Oyunu { $p }abort ile iptal edebilirsin.

move-error-empty = hamle yazılmadı
move-error-too-long = bu bir hamle olamayacak kadar uzun
move-error-syntax = '{ $input }' okuyabildiğim bir hamle değil; { $san } gibi SAN ya da { $coordinates } gibi koordinat dene
move-error-illegal = { $input } oynanamaz: { $reason }
move-error-illegal-hints = { $input } oynanamaz: { $reason }; { $hints }
move-error-hint-list = { $first }; { $rest }

# Bir hamlenin neden oynanamadığı. $role taşın adıdır (piece-name); $owner ve $turn white ya da
# black; $choices terfi taşlarını sıralar (=Q, =R).
piece-name = { $role ->
        [pawn] piyon
        [knight] at
        [bishop] fil
        [rook] kale
        [queen] vezir
        [king] şah
        [archbishop] arkfil
        [chancellor] şansölye
        [missile] füze
       *[other] taş
    }
refusal-no-bombs = bu varyantta bomba yok
refusal-detonation = şu anda orada patlatma olmaz: kendi bombanın karesini söyle; şah çekilmişse patlama şahını hem sağ hem de şahtan kurtulmuş bırakmalı
refusal-no-missiles = bu varyantta füze atışı yok
refusal-not-a-missile = { $from } karesindeki taş { $role }, füze değil
refusal-no-missile-on = { $from } karesinde füzen yok
refusal-off-board = { $square } bu tahtada yok
refusal-unarmed = henüz piyon dışında hiçbir taş alınmadı, bu yüzden füzeler atılamaz
refusal-missile-attacked = { $from } karesindeki füzeni { $by } karesindeki { $role } tehdit ediyor ve tehdit altındaki bir füze atılamaz
refusal-shielded = { $square } karesi bir şahın kalkanı altında: şahın durduğu kareye ve yanındaki karelere füze atılamaz
refusal-launch-into-check = bu atıştan sonra şahın şah altında kalır
refusal-castle-missiles = bu füzeler roka katılamaz
refusal-list = { $first }; { $rest }
missile-hold-none = { $missile } karesinde roka katılabilecek bir füzen yok
missile-hold-moved = { $missile } karesindeki füze daha önce oynadığı için roka katılamaz
missile-hold-king-stays = şahın sütunu değişmiyor, bu yüzden hiçbir füze roka katılmaz
missile-hold-blocked = { $missile } karesindeki füze roka katılamaz: yolundaki { $square } karesinde bir taş var
missile-hold-irradiated = { $missile } karesindeki füze roka katılamaz: yolundaki { $square } karesi radyasyonlu
refusal-castle-in-check = şah çekilmişken rok yapamazsın
refusal-castle-impossible = o tarafa rok şu anda olmaz (şah ya da kale oynamış, arada taş var ya da geçilen bir kare tehdit altında)
refusal-castle-irradiated = o tarafa rok olmaz: { $square } karesi radyasyonlu ve rok radyasyonlu bir kareden geçemez, orada da bitemez
refusal-promotion = piyonun hangi taşa terfi edeceğini söyle, örneğin { $example }: { $choices }
refusal-promotion-coordinates = piyonun hangi taşa terfi edeceğini söyle, örneğin { $example }
refusal-promotion-to = piyon terfi ederek { $role } olamaz: { $choices } arasından seç
refusal-no-such-role = bu varyantta { $role } yok
# Sonraki ikisinde $role taşın İngilizce adı (pawn, knight, …); piece-name onu Türkçe yazar.
refusal-no-piece-of-role = hiç { $role ->
        [pawn] piyonun
        [knight] atın
        [bishop] filin
        [rook] kalen
        [queen] vezirin
        [king] şahın
        [archbishop] arkfilin
        [chancellor] şansölyen
        [missile] füzen
       *[other] taşın
    } kalmadı
refusal-irradiated = { $square } karesi radyasyonlu: orada hiçbir taş duramaz
refusal-irradiated-on-the-way = { $to } karesine giden yoldaki { $square } karesi radyasyonlu: hiçbir taş oradan geçemez
refusal-own-piece = { $square } karesinde kendi taşın duruyor
refusal-check-not-answered = şah çekildi ve bu { $role } hamlesi şahı savuşturmuyor
refusal-into-check = bu { $role } hamlesinden sonra şahın şah altında kalır
refusal-explodes-own-king = bu { $role } alışının patlaması kendi şahını havaya uçurur
refusal-cannot-reach = { $square } karesine gidebilecek { $role ->
        [pawn] piyonun
        [knight] atın
        [bishop] filin
        [rook] kalen
        [queen] vezirin
        [king] şahın
        [archbishop] arkfilin
        [chancellor] şansölyen
        [missile] füzen
       *[other] taşın
    } yok
refusal-not-from = { $place } { $square } karesine gidebilecek { $role ->
        [pawn] piyonun
        [knight] atın
        [bishop] filin
        [rook] kalen
        [queen] vezirin
        [king] şahın
        [archbishop] arkfilin
        [chancellor] şansölyen
        [missile] füzen
       *[other] taşın
    } yok
place-file = { $file } dikeyinde
place-rank = { $rank }. yatayda
place-square = { $square } karesinde
refusal-no-piece-on = { $square } karesinde taş yok
refusal-not-yours = { $square } karesindeki { $role } { $owner ->
        [white] Beyazın
       *[black] Siyahın
    }; sıra { $turn ->
        [white] Beyazda
       *[black] Siyahta
    }
refusal-no-legal-move = { $from } karesindeki { $role } için yasal hamle yok
refusal-cannot-go = { $from } karesindeki { $role } { $to } karesine gidemez
refusal-and = { $first }, ayrıca { $rest }
hint-meant = { $moves } mi demek istedin?
hint-moves = { $role } hamleleri: { $moves }
hint-castling = rok hamleleri: { $moves }
hint-in-check = şah altındasın
hint-plain = { $moves }
hint-launches = atışlar: { $moves }
moves-mover = { $name } ({ $color })
moves-all = Oyun #{ $id }: sıra { $mover } oyuncusunda, { $count } yasal hamlesi var. { $list }.
moves-piece = Oyun #{ $id }: { $piece } için { $count } yasal hamle var: { $list }.
moves-all-launches = Oyun #{ $id }: sıra { $mover } oyuncusunda, { $count } yasal hamlesi var, hepsi atış.
moves-none = Oyun #{ $id }: sıra { $mover } oyuncusunda ve yasal hamlesi yok.
moves-piece-none = Oyun #{ $id }: { $piece } için yasal hamle yok.
moves-launches-counted = Füzeye göre atışlar: { $missiles } (bir füzeninkileri { $p }moves { $square } listeler).
moves-in-check = { $mover } şah altında.
moves-no-detonations = Bir bombanın patlatılması burada, herkesin okuduğu yerde hiç listelenmez ({ $p }bomb seninkini yalnızca sana gösterir).
moves-not-square = Oyun #{ $id }: '{ $text }' bu tahtada bir kare değil; g1 gibi bir kare söyle.
moves-no-piece = Oyun #{ $id }: { $square } karesinde taş yok.
moves-not-turn = Oyun #{ $id }: { $piece } { $owner } tarafın, sıra ise { $mover } oyuncusunda.
moves-setup = Oyun #{ $id } henüz başlamadı: dizilim bitince hamleleri listelenebilir.
moves-over = Oyun #{ $id } bitti: listelenecek hamlesi kalmadı.
move-error-ambiguous = { $input } belirsiz; hangisini demek istedin: { $candidates }?

reason-checkmate = şah mat
reason-king-exploded = şahın patlaması
reason-resignation = terk
reason-time-forfeit = süre aşımı
reason-forfeit = hükmen
reason-no-material-left = taş kalmaması
reason-stalemate = pat
reason-threefold-repetition = üç kez tekrar
reason-fifty-move-rule = elli hamle kuralı
reason-insufficient-material = yetersiz taş
reason-agreement = anlaşma
reason-time-out-but-no-mating-material = mat edecek taşı olmayan rakibe karşı süre aşımı
reason-both-kings-exploded = iki şahın da patlaması

# Resimler: ekran okuyucular için tahtanın tarifi.
alt-board = { $variant } tahtası, sıra { $color } tarafta.{ $last } Beyaz: { $white }. Siyah: { $black }.
alt-last-move = { " " }Son hamle { $from } karesinden { $to } karesine.

# Teklifler ve oyunun başlaması.
challenge-colors = { $color ->
        [white] { $name } beyaz oynar
        [black] { $name } siyah oynar
       *[random] renkler kurayla belirlenir
    }
clock-text = { $days ->
        [0] süre yok
       *[other] hamle başına { $days } gün
    }
clock-rated = { $clock }, puanlı
clock-casual = { $clock }, puansız
setup-suffix = , dizilim { $number }
level-suffix = , seviye { $level }
setup-range = { $variant } dizilimleri 0 ile { $max } arasındadır, { $given } değil.
setup-one = { $variant } tek bir başlangıç dizilimiyle oynanır; setup:N birden çok dizilimi olan varyantlar içindir ({ $list }).
relocation-no-setup = Capablanca Relocation dizilimini kabulden sonra yer değiştirmelerle seçer; setup:N yazma.
challenge-mention = '{ $name }' adında bir varyant bilmiyorum. Birine meydan okumak için onu etiketle: @{ $name }. Varyantlar: { $names }
challenge-mention-near = '{ $name }' adında bir varyant bilmiyorum. Şunu mu demek istedin: { $near }? Birine meydan okumak için onu etiketle: @{ $name }. Varyantlar: { $names }
rating-mention = '{ $name }' adında bir varyant bilmiyorum. Birinin puanını sormak için onu etiketle: @{ $name }. Varyantlar: { $names }
mention-unclear = Kimi kastettiğini anlayamadım; adı bağlantıya dönüşecek şekilde onu etiketle.
community-rated-only = Bu toplulukta yalnızca puanlı oyun oynanır; casual yazma.
community-casual-only = Bu toplulukta yalnızca puansız oyun oynanır; rated yazma.
level-only-ai = level:N bana karşı oyunlar içindir: { $p }play [varyant] level:N.
ai-games-mine = Bana karşı zaten { $count } oyunun sürüyor; bir kişiyle aynı anda en çok bu kadar oyun oynarım. Önce birini bitir ya da { $p }resign ile terk et (liste için { $p }games).
ai-games-all = Şu anda aynı anda { $count } oyun oynuyorum, kaldırabileceğim bu kadar. Bazıları bitince yeniden dene.
challenge-self = Kendine meydan okuyamazsın.
challenge-answer-slash = Kabul ya da Reddet düğmesi veya /accept ve /decline
challenge-anyone-slash = Kabul düğmesi ya da /accept { $id }
challenge-answer-typed = { $p }accept ya da { $p }decline
challenge-anyone-typed = { $p }accept #{ $id }
challenge-direct = Meydan okuma #{ $id }: { $name }, { $other } adlı oyuncuya { $variant } oynamak için meydan okuyor ({ $terms }{ $setup }, { $colors }). { $other }: { $answer } ({ $hours } saat içinde geçerliliğini yitirir).
challenge-open = Açık meydan okuma #{ $id }: { $name } { $variant } oynamak istiyor ({ $terms }{ $setup }, { $colors }). Buradaki herkes: { $anyone } ({ $hours } saat içinde geçerliliğini yitirir).
button-accept = Kabul
button-decline = Reddet
button-withdraw = Geri çek
accept-none = Burada kabul edebileceğin bir meydan okuma yok.
accept-which = Birden çok açık meydan okuma var ({ $ids }); hangisi olduğunu söyle, ör. { $p }accept { $first }.
challenge-duplicate = Aynı koşullardaki #{ $id } numaralı meydan okuman ({ $variant }) hâlâ yanıt bekliyor; { $p }decline #{ $id } onu geri çeker.
challenge-closed = Meydan okuma #{ $id } artık açık değil.
thread-title = Oyun #{ $id }: { $white } - { $black } ({ $variant })
game-starts-relocation = Oyun #{ $id } başlıyor: { $white } (beyaz) - { $black } (siyah), { $variant }, { $clock }. Dizilim aşaması: önce { $black } (siyah) seçer: { $p }swap K b (şah b sütunundaki taşla yer değiştirir), { $p }swap Q h, ... ya da { $p }noswap.
game-starts = Oyun #{ $id } başlıyor: { $white } (beyaz) - { $black } (siyah), { $variant }{ $setup }, { $clock }. Sıra { $mover } (beyaz) oyuncusunda.
bombs-first = { $ai ->
        [yes] Önce gizli bombanı seçersin: sana özel mesaj gönderdim (capabot kendininkini seçti).
       *[no] Önce her oyuncu gizli bir bomba seçer: ikinize de özel mesaj gönderdim.
    }
ai-thinking = Oyun #{ $id }: capabot düşünüyor…
decline-open = Meydan okuma #{ $id } buradaki herkese açık: reddedilemez, yalnızca { $name } geri çekebilir; { $p }accept #{ $id } ile kabul edersin.
decline-none-for-you = Burada reddedebileceğin bir meydan okuma yok.
decline-unknown = Burada reddedebileceğin ya da geri çekebileceğin #{ $id } numaralı açık bir meydan okuma yok.
decline-none = Burada reddedebileceğin ya da geri çekebileceğin bir meydan okuma yok.
decline-which = Birden çok açık meydan okuma var ({ $ids }); hangisi olduğunu söyle, ör. { $p }decline { $first }.
challenge-ended = Meydan okuma #{ $id }, { $name } tarafından { $status ->
        [declined] reddedildi
       *[cancelled] geri çekildi
    }.
challenge-none = #{ $id } numaralı meydan okuma yok.
challenge-not-here = Meydan okuma #{ $id } bu sohbette değil.
challenge-not-open = Meydan okuma #{ $id } artık açık değil ({ $status ->
        [accepted] kabul edildi
        [declined] reddedildi
        [cancelled] geri çekildi
        [expired] süresi doldu
       *[other] { $status }
    }).
challenge-expired = Meydan okuma #{ $id } geçerliliğini yitirdi.
challenge-own = Meydan okuma #{ $id } senin; { $p }decline #{ $id } ile geri çekersin.
challenge-for-other = Meydan okuma #{ $id } { $name } için, senin için değil.
challenge-none-open = Burada kabul edebileceğin #{ $id } numaralı açık bir meydan okuma yok.

# Terk, teklifler, geri almalar, iptal.
game-still-setup = Oyun #{ $id } hâlâ dizilim aşamasında.
game-already-over = Oyun #{ $id } zaten bitti.
position-changed-short = Oyun #{ $id }: bu arada konum değişti; { $p }board ile tahtaya bakıp yeniden dene.
position-changed-retry = Oyun #{ $id }: bu arada konum değişti; yeniden dene.
# How a game's end begins: in a move's answer (the game named before it), or alone.
game-over-head = Oyun bitti
game-over-head-numbered = Oyun #{ $id } bitti
draw-already-offered = Oyun #{ $id }: zaten beraberlik teklif ettin; teklifin bir sonraki hamleye kadar geçerli.
draw-ai-declines = Oyun #{ $id }: capabot beraberliği reddediyor ve oynamaya devam ediyor.
draw-offered = Oyun #{ $id }: { $name } beraberlik teklif ediyor. { $other }: kabul için { $p }draw, reddetmek için { $p }draw decline; herhangi bir hamle de reddetmek sayılır.
button-accept-draw = Beraberliği kabul et
button-decline-draw = Beraberliği reddet
takeback-already-asked = Oyun #{ $id }: zaten geri alma istedin; rakibinin yanıtı bekleniyor.
takeback-nothing = Oyun #{ $id }: geri alınacak hamle yok.
takeback-asked = Oyun #{ $id }: { $name } son hamlesini geri almak istiyor. { $other }: kabul için { $p }takeback, reddetmek için { $p }takeback decline.
button-allow-takeback = Geri almaya izin ver
button-decline-takeback = Geri almayı reddet
button-analyse = Analiz et
takeback-nothing-yours = Oyun #{ $id }: geri alınacak bir hamlen yok.
takeback-done = Oyun #{ $id }: { $count } hamle geri alındı. Sıra { $name } ({ $color }) oyuncusunda.
offer-yours = Oyun #{ $id }: { $what ->
        [draw] beraberliği sen teklif ettin; rakibin kabul edebilir
       *[takeback] geri almayı sen istedin; rakibin kabul edebilir
    } ya da reddedebilir.
offer-none = Oyun #{ $id }: reddedilecek bir { $what ->
        [draw] beraberlik teklifi
       *[takeback] geri alma isteği
    } yok.
offer-gone = Oyun #{ $id }: { $what ->
        [draw] beraberlik teklifi
       *[takeback] geri alma isteği
    } artık beklemede değil.
offer-declined-wait = Oyun #{ $id }: { $what ->
        [draw] beraberlik teklifin
       *[takeback] geri alma isteğin
    } reddedildi; bir sonraki hamleden sonra yeniden deneyebilirsin.
offer-declined = Oyun #{ $id }: { $name }, { $other } adlı oyuncunun { $what ->
        [draw] beraberlik teklifini
       *[takeback] geri alma isteğini
    } reddetti; oyun sürüyor.
abort-tournament = Oyun #{ $id } bir turnuva oyunu, iptal edilemez; onun yerine { $p }resign ya da { $p }draw.
abort-ladder = Oyun #{ $id } bir merdiven oyunu, iptal edilemez: meydan okuma sonuna kadar oynanır; { $p }resign ile her hamlede teslim olabilirsin ya da { $p }draw.
abort-too-late = Oyun #{ $id }: iki taraf da hamle yaptı, artık iptal edilemez; onun yerine { $p }resign ya da { $p }draw.
game-aborted = Oyun #{ $id }, { $name } tarafından iptal edildi.
game-aborted-unplayed = Oyun #{ $id } iptal edildi: { $name } iki taraf da hamle yapmadan terk etti; oyun sonuçsuz biter, puanlar değişmez.
game-aborted-timeout = Oyun #{ $id } iptal edildi: { $name } iki taraf da hamle yapmadan süresini doldurdu; oyun sonuçsuz biter, puanlar değişmez.

# Capablanca Relocation dizilim aşaması.
swap-no-setup = Oyun #{ $id } dizilim aşamasında değil; yer değiştirmeler ilk hamleden önce Capablanca Relocation içindir.
swap-unreadable = '{ $text }' yer değiştirmesini okuyamadım. Şahı ya da veziri ve yer değiştireceği taşı ya da sütunu yaz: { $p }swap K b, { $p }swap Q h, { $p }swap KA ya da { $p }noswap.
swap-rook = Yer değiştirmede kaleler yerinden oynamaz: şahını ya da vezirini bir atla, arkfille, fille ya da şansölyeyle değiştir veya ikisini birbiriyle değiştir ({ $p }swap K b, { $p }swap Q h) ya da dizilimi { $p }noswap ile koru.
swap-own-file = { $who ->
        [queen] Vezirin
       *[king] Şahın
    } zaten { $file } sütununda: yer değiştireceği taşın sütununu yaz ({ $p }swap K b, { $p }swap Q h) ya da dizilimi { $p }noswap ile koru.
swap-bishops = { $who ->
        [queen] Vezirini
       *[king] Şahını
    } { $file } sütunundaki fille değiştirmek iki fili de aynı renk karelere koyar, kurallar buna izin vermez: başka bir taş seç ya da { $p }noswap yaz.
swap-which-knight = İki atın var, { $first } ve { $second } sütunlarında: hangisini kastettiğini sütunuyla yaz, ör. { $example }.
swap-other-chooses = Oyun #{ $id }: şimdi yer değiştirmeyi { $name } ({ $color }) seçiyor.
swap-already = Oyun #{ $id }: bu yer değiştirme zaten seçildi.
swap-setup-over = Oyun #{ $id }: dizilim aşaması zaten bitti.
swap-white-chose = Oyun #{ $id }: Beyaz seçimini yaptı ({ $swap }); dizilim { $setup }. Oyun başlıyor: sıra { $name } (beyaz) oyuncusunda.
swap-black-chose = Oyun #{ $id }: Siyah seçimini yaptı ({ $swap }).
swap-black-chose-next = Oyun #{ $id }: Siyah seçimini yaptı ({ $swap }). { $name } (beyaz): { $p }swap K b, { $p }swap Q h, ... ya da { $p }noswap.

# Zamanlayıcı: süre, hatırlatmalar, geçerlilik.
timeout = Oyun #{ $id }: { $name } süresini doldurdu. { $end }
reminder = Oyun #{ $id }: hatırlatma: sıra { $name } ({ $color }) oyuncusunda, { $hours } sa { $minutes } dk kaldı.
reminder-setup = Oyun #{ $id }: hatırlatma: dizilimi seçme sırası { $name } ({ $color }) oyuncusunda: { $p }swap K b, { $p }swap Q h, ... ya da { $p }noswap; { $hours } sa { $minutes } dk kaldı, süre dolunca yer değiştirme yapılmamış sayılır.
setup-clock = Seçim için süre: { $hours } sa { $minutes } dk; bu sürede seçim yapılmazsa yer değiştirme yapılmamış sayılır.
setup-timeout = Oyun #{ $id }: { $name } ({ $color }) zamanında seçim yapmadı; { $color } için yer değiştirme yapılmamış sayılır.
challenge-expired-notice = { $open ->
        [yes] #{ $id } numaralı herkese açık meydan okuman ({ $variant }) yanıtsız kaldı ve geçerliliğini yitirdi.
       *[no] { $name } adlı oyuncuya #{ $id } numaralı meydan okuman ({ $variant }) yanıtsız kaldı ve geçerliliğini yitirdi.
    }
swap-none = yer değiştirme yok

# Oyunlara bakmak: tahta, liste, hareketli resimler.
variants-head = Varyantlar:
status-setup = dizilim aşaması
status-to-move = sıra { $name } ({ $color }) oyuncusunda
status-finished = bitti: { $result }
status-aborted = iptal edildi
status-in-progress = sürüyor
board-head = Oyun #{ $id }: { $white } (beyaz) - { $black } (siyah), { $variant }; { $status }.
time-left = Kalan süre: { $hours } sa { $minutes } dk.
draw-pending = { $name } beraberlik teklif etti.
takeback-pending = { $name } geri alma istedi.
no-games = Hiç oyunun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
games-time-left = , kalan süre { $hours } sa { $minutes } dk
games-line = oyun #{ $id } { $variant }, rakip { $other }, { $number }. hamle, { $state ->
        [setup] dizilim aşaması
        [bomb] bombanı seç (bana özel mesajla)
        [yours] sıra sende
       *[theirs] sıra rakipte
    }{ $here ->
        [here] {""}
       *[elsewhere] { " " }(başka bir sohbette)
    }
suggest-game = #{ $id } { $variant }, rakip { $other } — { $state ->
        [setup] dizilim aşaması
        [bomb] bombanı seç
        [yours] sıra sende
        [theirs] sıra rakipte
        [aborted] iptal edildi
       *[finished] { $result }
    }
suggest-challenge = #{ $id } { $kind ->
        [to-you] { $name } meydan okuyor
        [open] { $name } meydan okuyor (herkese açık)
        [yours] { $name } adlı oyuncuya meydan okuman
       *[yours-open] herkese açık meydan okuman
    } — { $variant }
suggest-tournament = #{ $id } { $name } — { $system ->
        [roundrobin] lig
        [double] çift devreli lig
       *[swiss] İsviçre sistemi, { $rounds } tur
    }, { $variant }, { $status ->
        [registration] kayıt açık
        [running] sürüyor
       *[finished] bitti
    }
games-challenge-line = { $name } adlı oyuncudan meydan okuma #{ $id } ({ $variant }): { $p }accept #{ $id }
games-challenge-elsewhere-line = { $name } adlı oyuncudan meydan okuma #{ $id } ({ $variant }), başka bir sohbette: orada kabul et ya da reddet
games-sent-line = { $open ->
        [yes] herkese açık meydan okuman #{ $id } ({ $variant }), buradan birinin kabulünü bekliyor
       *[no] { $name } adlı oyuncuya meydan okuman #{ $id } ({ $variant }), yanıtını bekliyor
    }: geri çekmek için { $p }decline #{ $id }
games-none = Süren oyun yok. { $direct ->
        [yes] Burada { $p }play ile başlat; insanlara, onlarla paylaştığın bir sohbette meydan okunur.
       *[no] { $p }challenge @biri ya da { $p }play ile başlat.
    }
games-head = Oyunların:
ai-name-level = capabot, seviye { $level }
pictures-off = Bu botta resimler kapalı; { $p }pgn oyunu metin olarak verir.
gif-in-setup = Oyun #{ $id } hâlâ dizilim aşamasında: canlandırılacak bir şey yok.
gif-no-moves = #{ $id } numaralı oyunda henüz hamle yok: canlandırılacak bir şey yok.
gif-too-long = Oyun #{ $id }: oyunda { $plies } yarım hamle var; hareketli resimler { $max } yarım hamlede durur; { $p }pgn oyunu metin olarak verir.
gif-caption = Oyun #{ $id }, { $white } (beyaz) - { $black } (siyah), { $variant }: { $count } hamle, { $state }.
gif-alt = #{ $id } numaralı oyunun hareketli tahtası, { $variant }: { $white } (beyaz) - { $black } (siyah), başlangıçtan itibaren her hamleye bir kare. Hamleler: { $moves }. Sonuç: { $state }.

# Gizli bomba satrancı. $role bir taşın İngilizce adıdır.
piece-on = { $square } karesindeki { $role ->
        [pawn] piyon
        [knight] at
        [bishop] fil
        [rook] kale
        [queen] vezir
        [king] şah
        [archbishop] arkfil
        [chancellor] şansölye
        [missile] füze
       *[other] taş
    }
bomb-not-here = Burada olmaz: bu sohbetteki herkes onu okuyabilir. Bomba bana özel mesajla, oyun başına bir kez seçilir: orada bomb yaz, bombanı görürsün; henüz seçmediysen seçersin. Bu mesajla hiçbir şey seçilmedi, hiçbir şey değişmedi.
bomb-no-game = Gizli bomba oyunun yok.
bomb-sent-dm = Özel mesajlarına gönderdim.
bomb-not-yours = Oyun #{ $id }, süren bir gizli bomba oyunun değil.
bomb-no-game-in-progress = Süren bir gizli bomba oyunun yok.
bomb-which = { $count } gizli bomba oyunun var ({ $ids }); numarasını ekle, ör. bomb { $first } g1.
game-not-in-progress = Oyun #{ $id } sürmüyor.
bomb-already = Oyun #{ $id }: bomban zaten seçildi (başlangıçta { $piece }); değiştirilemez.
bomb-not-square = '{ $text }' bir kare değil: g1 gibi bir kare söyle.
bomb-bad-square = Oyun #{ $id }: bomban, başlangıçtaki hâliyle şah dışındaki kendi taşlarından biri olmalı; { $square } öyle değil.
bomb-raced = Oyun #{ $id }: bu arada bomban seçildi; görmek için bomb yaz.
bomb-chosen = Oyun #{ $id }: bomban { $piece }. Bomba taşıyla birlikte hareket eder (terfi eden piyonun yeni taşı da bombayı taşır). Sıra sendeyken hamle yerine @ ve karesiyle patlatabilirsin (oradayken @{ $square } oyna): bomba ve yanındaki her taş tahtadan kalkar.
bomb-chosen-notice = Oyun #{ $id }: { $name } ({ $color }) gizli bombasını seçti.
bomb-both-set = İki bomba da hazır.
bomb-to-move = Sıra { $name } oyuncusunda.
bomb-prompt = { $other } ile #{ $id } numaralı oyun (gizli bomba satrancı, sen { $color } oynuyorsun): gizli bombanı, şah dışındaki taşlarından birini seç. Patlayana ya da oyun bitene kadar kimse hangisi olduğunu öğrenmez. Düğmesine bas ya da buraya bomb ve karesini yaz (bomb { $example }). Seçmeden hamle yapamazsın.
bomb-where-now = bomban başlangıçta { $piece } idi, şimdi { $square } karesinde
bomb-gone = bomban (başlangıçta { $piece }) gitti
bomb-not-chosen = bombanı henüz seçmedin
bomb-own-board = Oyun #{ $id }: { $state }.
bomb-own-board-alt = #{ $id } numaralı oyundaki tahtan; { $state }.
bomb-missing = Oyun #{ $id }: ilk hamlenden önce gizli bombanı seç; seçeneği sana özel mesajla gönderdim.
bomb-random-own = Oyun #{ $id }: seçme süren doldu, bombanı rastgele seçtim: { $piece }. Hamle süren yeniden başlıyor.
bomb-random-notice = Oyun #{ $id }: { $name } ({ $color }) bombasını zamanında seçmedi, bu yüzden rastgele seçildi. Sıra { $name } oyuncusunda.
bomb-side-was = { $side ->
        [white] Beyazınki
       *[black] Siyahınki
    } { $piece } idi
bomb-side-never = { $side ->
        [white] Beyaz
       *[black] Siyah
    } hiç seçmedi
bombs-revealed = Bombalar, başladıkları yerler: { $white }. { $black }.

# Yapay zekâ hamlesinin neden bırakıldığı (günlüğe yazılır, gösterilmez).
ai-game-vanished = oyun bulunamadı
ai-game-moved-on = oyun ilerledi
game-paused = Oyun #{ $id } duraklatıldı: artık sohbetine yazamıyorum (sohbet silindi ya da ben çıkarıldım). Saati durdu. İkinizden biri, bulunduğum başka bir sohbette `{ $p }move #{ $id } …` ile sürdürebilir (özel mesajda değil); ikiniz de orada hamle yapınca saat yeniden işler.
game-paused-closed = Oyun #{ $id } duraklatıldı: sohbetine artık yazmama izin verilmiyor (sohbet kilitlendi ya da yazma iznim kaldırıldı). Saati durdu. İkinizden biri, bulunduğum başka bir sohbette `{ $p }move #{ $id } …` ile sürdürebilir (özel mesajda değil); ikiniz de orada hamle yapınca saat yeniden işler.
game-taken-up = Oyun burada sürüyor; { $name } adlı oyuncu da burada hamle yapınca saati yeniden işler.
game-paused-not-direct = Oyun #{ $id } duraklatıldı. Rakibinin de izleyebileceği bir yerde sürdür: özel mesajda ya da özel bir grupta değil, birlikte bulunduğunuz bir sunucunun ya da alanın sohbetinde `{ $p }move #{ $id } …` yaz.

games-moved-here = { $count ->
        [one] Oyun { $ids } burada sürüyor: sohbeti bu sohbetle değiştirildi.
       *[other] Oyunlar { $ids } burada sürüyor: sohbetleri bu sohbetle değiştirildi.
    }

# Bilgisayar analizi (`analyse`). Kazanma şansı ve isabet tam sayı yüzdelerdir.
analysis-progress = Oyun #{ $id } analiz ediliyor: { $total } konumdan { $done } tanesi bitti…
analysis-head = #{ $id } numaralı oyunun analizi, { $white } (beyaz) - { $black } (siyah), { $variant }, { $result } (konum başına { $nodes } düğüm).
analysis-again = (daha önce analiz edildi)
analysis-side = { $name } ({ $color }): isabet %{ $accuracy }, { $inaccuracies } kusurlu hamle, { $mistakes } hata, { $blunders } büyük hata.
analysis-side-no-moves = { $name } ({ $color }): hamle yok.
analysis-turning-points = Dönüm noktaları: { $moves }.
analysis-no-turning-points = Hiçbir hamle, oynayan tarafın kazanma şansını 5 yüzde puan ya da daha fazla düşürmedi: dönüm noktası yok.
analysis-pgn-hint = Açıklamalı oyun: { $p }pgn #{ $id } analysed
analysis-point = { $label } ({ $color }): kazanma şansı %{ $before } → %{ $after }; daha iyisi { $better } idi.
analysis-point-alt = { $label } öncesindeki tahta: oynanan hamle ({ $played }) kırmızı okla, daha iyi hamle ({ $better }) yeşil okla gösteriliyor.
analysis-chart-alt = #{ $id } numaralı oyunda her hamleden sonra Beyazın kazanma şansını gösteren grafik: başta %{ $start }, sonda %{ $end }; { $count } hamle kusur, hata ya da büyük hata olarak işaretli.
analysis-word-inaccuracy = kusur
analysis-word-mistake = hata
analysis-word-blunder = büyük hata
analysis-failed = Oyun #{ $id } analiz edilemedi, kusura bakma. Lütfen daha sonra yeniden dene.
analysis-no-game = Bu sohbette analiz edilecek oyunun yok; numarasıyla bir oyun söyle, örneğin { $p }analyse #12.
analysis-not-here = Oyun #{ $id } bu sohbette oynanmadı: analizini oynandığı yerde iste.
analysis-unfinished = Oyun #{ $id } bitmedi: yalnızca biten oyunlar analiz edilir.
analysis-aborted = Oyun #{ $id } iptal edildi: analiz edilecek bir şey yok.
analysis-no-moves = #{ $id } numaralı oyunda hamle yok: analiz edilecek bir şey yok.
analysis-too-long = Oyun #{ $id } { $plies } yarım hamle sürdü; analizler { $max } yarım hamlede durur.
analysis-busy-you = Analizin hâlâ sürüyor: yenisini istemeden önce onu bekle.
analysis-busy-full = capabot şu anda zaten { $count } analizle meşgul; lütfen bir dakika sonra yeniden dene.
analysis-none-yet = Oyun #{ $id } henüz analiz edilmedi: önce { $p }analyse #{ $id } yaz.

rematch-no-game = Bu sohbette yeniden oynanacak bitmiş bir oyunun yok; numarasıyla birini belirt, ör. { $p }rematch #12.
rematch-not-here = Oyun #{ $id } bu sohbette oynanmadı: rövanşı oyunun oynandığı yerde iste.
rematch-not-player = Oyun #{ $id } senin oyunun değildi: rövanşı yalnızca oyuncuları isteyebilir.
rematch-unfinished = Oyun #{ $id } hâlâ sürüyor; rövanş oyun bitince istenebilir ({ $p }resign #{ $id } ya da { $p }draw #{ $id } onu daha erken bitirir).
rematch-already = { $name } adlı oyuncuya #{ $id } numaralı meydan okuman zaten yanıt bekliyor; { $p }decline #{ $id } onu geri çeker.
challenge-in-direct = Bu sohbeti yalnızca sen ve ben okuyoruz; burada yapılan bir meydan okumayı kimse kabul edemez: insanlara, onlarla paylaştığın bir sohbette meydan oku. Bana karşı { $p }play burada da olur.
rematch-playing = Oyun #{ $id }, #{ $game } numaralı oyunun rövanşı, sürüyor: önce onu oyna ({ $p }board #{ $id }).
rematch-gone = { $name } adlı oyuncuya artık burada meydan okunamaz.
rematch-of = Oyun #{ $game } için rövanş. { $text }
button-rematch = Rövanş
game-end-next = Sırada: { $p }analyse #{ $id } oyunun nerede döndüğünü gösterir, { $p }rematch #{ $id } rövanş teklif eder.
game-end-next-rematch = Sırada: { $p }rematch #{ $id } rövanş teklif eder.
