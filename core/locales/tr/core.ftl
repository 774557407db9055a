# Çekirdek: hatalar, ayarlar, diller. $p bir komutun burada nasıl yazıldığıdır (sohbetin öneki ya
# da yalnızca eğik çizgi komutlarının ulaştığı yerde /).

internal-error = Kusura bakma, bende bir şeyler ters gitti (hata kimliği { $id }).
not-saved = Bu kaydedilmedi ve hiçbir şey değişmedi: şu anda yazamadım. Lütfen yeniden dene.
input-too-long = Bu mesaj çok uzun ({ $count } karakter); komutlar kısadır. Liste için { $p }help yaz.
parse-error = { $error }. Komutlar için { $p }help yaz.
parse-error-command = { $error }. Nasıl yazılacağı için { $p }help { $command } yaz.
command-unknown = '{ $word }' diye bir komut bilmiyorum. Liste için { $p }help yaz.
command-unknown-near = '{ $word }' diye bir komut bilmiyorum. Şunu mu demek istedin: { $p }{ $near }? Liste için { $p }help yaz.
direct-move-elsewhere = { $word } bir hamle gibi okunuyor, ama oyunların ({ $games }) başladıkları sohbetlerde oynanıyor: hamleni orada yap.
direct-games-elsewhere = Oyunların ({ $games }) başladıkları sohbetlerde oynanıyor: orada sor.
direct-move-command-elsewhere = Oyunların ({ $games }) başladıkları sohbetlerde oynanıyor: hamleni orada yap.
direct-unknown = '{ $word }' ne demek bilmiyorum. Burada yazdığın her satır bana gelir, bu yüzden komutların başında { $p } gerekmez: liste için help yaz.
direct-unknown-near = '{ $word }' ne demek bilmiyorum. Şunu mu demek istedin: { $near }? Burada yazdığın her satır bana gelir, bu yüzden komutların başında { $p } gerekmez: liste için help yaz.
variant-unknown = '{ $name }' diye bir varyant bilmiyorum. Varyantlar: { $names }.
variant-unknown-near = '{ $name }' diye bir varyant bilmiyorum. Şunu mu demek istedin: { $near }? Varyantlar: { $names }.
no-setup = { $variant } için { $number } numaralı dizilim yok (dizilimleri 0 ile { $max } arası), bu yüzden bu oyun başlayamaz; başka bir setup:N ile ya da setup:N olmadan yeniden teklif et.
or-list = { $head } ya da { $tail }
color-white = beyaz
color-black = siyah
color-random = rastgele

settings-days-none = yok
settings-on = açık
settings-off = kapalı
settings-rated-community = rated: bir topluluk kuralıdır: { $p }settings community rated:choice|always|never.
settings-no-community = Bu sohbet bir topluluğa bağlı değil; bu sohbetin ayarlarını değiştirmek için 'community' yazma.
settings-rated-rule = , puanlı oyunlar: { $rule }
settings-community-hint = { " " }(bütün topluluk için { $p }settings community ...)
settings-show = { $whose ->
        [community] Bu topluluğun varsayılanları
       *[chat] Buradaki ayarlar
    }: önek { $prefix }, varyant { $variant }, gün { $days }, her oyuna alt başlık { $thread }, bitişte hareketli resim { $gif }, tahta teması { $theme }{ $rule }, dil { $lang }. Değiştirmek için { $p }settings önek:? varyant:chess gün:3 alt-başlık:{ optvalue-on } gif:{ optvalue-on } tema:{ optvalue-contrast } dil:en{ $community }; bir ayarın ardından :{ optvalue-default } (tema:{ optvalue-default } gibi) onu topluluğun değerine ya da yerleşik olana döndürür.
settings-admins-only = Buradaki ayarları yalnızca topluluğun yöneticileri değiştirebilir.
settings-saved = { $whose ->
        [community] Topluluk ayarları kaydedildi ({ $what }); kendi ayarı olmayan sohbetler bunlara uyar.
       *[chat] Ayarlar kaydedildi: { $what }.
    }{ $prefix_now }
settings-prefix-now = { " " }Buradaki komutlar artık { $prefix } ile başlıyor, ör. { $prefix }help.

notify-show = Özel mesaj bildirimleri (hatırlatmalar, "sıra sende") { $state ->
        [on] senin için açık; { $p }notify off ile kapatırsın.
       *[off] senin için kapalı; { $p }notify on ile açarsın.
    }
notify-on = Özel mesaj bildirimleri açık: hatırlatmalar ve "sıra sende" bildirimleri özel mesajlarına gelir.
notify-off = Özel mesaj bildirimleri kapalı: hatırlatmalar oyunun sohbetine gelir.

lang-usage = lang tek sözcük alır: en, tr, de ya da { optvalue-default }
lang-unknown = en (İngilizce), tr (Türkçe) ve de (Almanca) konuşurum, '{ $given }' değil.
parse-lang = en (İngilizce), tr (Türkçe) ve de (Almanca) konuşurum, '{ $given }' değil
# Bir dilin adı; $code en, tr ya da de.
lang-name = { $code ->
        [tr] Türkçe
        [de] Almanca
       *[en] İngilizce
    }
lang-show-own = Seninle { $lang } konuşuyorum (senin seçimin); { $p }lang { optvalue-default } ile sohbetin diline dönersin.
lang-show-default = Seninle { $lang } konuşuyorum (sohbetin ya da uygulamanın dili); kendi dilini { $p }lang tr, { $p }lang de ya da { $p }lang en ile seçersin.
lang-set = Bundan sonra seninle Türkçe konuşuyorum: özel mesajlarda ve yalnızca senin gördüğün cevaplarda. Sohbetteki herkesin okuduğu mesajlar sohbetin dilinde kalır.
lang-cleared = Kendi dil seçimin silindi: seninle yine sohbetin dilinde konuşuyorum.
theme-show-own = Yalnızca senin okuduğun resimleri { $theme } temasıyla çiziyorum (senin seçimin); { $p }theme { optvalue-default } ahşaba döner. Ortak bir sohbetin resimleri onun kendi temasıyla çizilir ({ $p }settings theme:…).
theme-show-default = Yalnızca senin okuduğun resimleri ahşap ({ optvalue-wood }) temasıyla çiziyorum; { $p }theme { optvalue-contrast } (renk körü okurlar için) ya da { $p }theme { optvalue-green } kendi temanı seçer. Ortak bir sohbetin resimleri onun kendi temasıyla çizilir ({ $p }settings theme:…).
theme-set = Bundan sonra yalnızca senin okuduğun resimleri { $theme } temasıyla çiziyorum; ortak bir sohbetinkiler onun kendi temasına uyar ({ $p }settings theme:…).
theme-cleared = Kendi tahta teman unutuldu: yalnızca senin okuduğun resimler yine ahşap temasıyla çiziliyor.
theme-usage = theme tek sözcük alır: { optvalue-wood }, { optvalue-green }, { optvalue-contrast } ya da { optvalue-default }

# Yanlış yazılmış komutlar. $given yazılan şeydir.
parse-about-everyone = { $word } herkesle ilgilidir; '{ $given }' yazma
parse-not-understood = Burada '{ $given }' ne demek anlamadım
parse-only-game = { $word } yanına en çok #12 gibi bir oyun numarası alır, '{ $given }' değil
parse-only-challenge = { $word } yanına en çok #4 gibi bir meydan okuma numarası alır, '{ $given }' değil
parse-days = gün 1, 2, 3, 5, 7, 10, 14 ya da { optvalue-none } olmalı, '{ $given }' değil
parse-challenge-two-people = Bir meydan okuma tek bir kişiye yöneliktir: bir kişiyi etiketle ya da herkese açık meydan okuma için kimseyi etiketleme
parse-rated-casual = puanlı ya da puansız sözcüklerinden birini bir kez yaz, ikisini birden değil ('{ $first }' ve '{ $second }')
parse-option-twice = { $key } iki kez verilmiş ('{ $first }' ve '{ $second }'); bir kez ver
parse-color = renk { optvalue-white }, { optvalue-black } ya da { optvalue-random } olmalı, '{ $given }' değil
parse-level = seviye 1 ile 8 arası olmalı, '{ $given }' değil
parse-unknown-option = '{ $given }' diye bir seçenek yok; { $p }{ $word } seçenekleri: { $options }
# A list of names, one more before the rest.
list-more = { $first }, { $rest }
action-word = { $name }{ $count ->
        [yes] { " " }N
       *[no] { "" }
    }
parse-switch = { $key } { optvalue-on }, { optvalue-off } ya da { optvalue-default } olur, '{ $given }' değil
parse-settings = settings şunları alır: [topluluk] önek:X, varyant:AD, gün:N, alt-başlık:{ optvalue-on }|{ optvalue-off }, gif:{ optvalue-on }|{ optvalue-off }, tema:{ optvalue-wood }|{ optvalue-green }|{ optvalue-contrast }, puanlı:{ optvalue-choice }|{ optvalue-always }|{ optvalue-never }, web:{ optvalue-on }|{ optvalue-off }, dil:en|tr|de; her biri :{ optvalue-default } da alır (topluluğun değerine ya da yerleşik olana dönüş)
parse-prefix = Önek, ! ya da ? gibi 1 ile 3 sembolden oluşur ve sohbetlerin kendi kullandığı işaretlerle (@ # / < > : ` * _ ~ |) başlamaz
parse-rated = puanlı { optvalue-choice } (oyuncular seçer), { optvalue-always } ya da { optvalue-never } olur, '{ $given }' değil
parse-unknown-setting = '{ $given }' diye bir ayar yok; ayarlar önek, varyant, gün, alt-başlık, gif, tema, puanlı, web, dil
parse-theme = '{ $given }' diye bir tahta teması bilmiyorum; temalar: { $themes } ({ optvalue-contrast } renk körü okurlar içindir); { optvalue-default } ise seçim yokken geçerli olana döner
parse-which-move = Hangi hamle olduğunu söyle, ör. { $p }move e4 ya da { $p }move #12 Nf3
parse-game-decline = { $word } yanına en çok #12 gibi bir oyun numarası ve 'accept' ya da 'decline' alır, '{ $given }' değil
parse-pgn = { $word } yanına en çok #12 gibi bir oyun numarası ve 'analysed' alır, '{ $given }' değil
parse-which-swap = Hangi yer değiştirme olduğunu söyle, ör. { $p }swap K b (şahı b sütunundaki taşla) ya da { $p }noswap
parse-swap-number = { $number } numaralı oyun için #{ $number } yaz, ör. { $p }swap #{ $number } K b
parse-bomb = { $word } yanına #12 gibi bir oyun numarası ve g1 gibi tek bir kare alır, '{ $given }' değil
parse-moves = { $word } yanına #12 gibi bir oyun numarası ve en çok bir kare (g1 gibi) alır, '{ $given }' değil
parse-help = help yanına tek bir komut adı alır, ör. { $p }help analyse
parse-notify = notify yanına { optvalue-on } ya da { optvalue-off } alır, '{ $given }' değil
parse-no-args = { $word } yanına hiçbir şey almaz; '{ $given }' fazla
parse-positive = { $key ->
        [event] Olay numarası
        [season] Sezon
        [tournament] Turnuva numarası
       *[round] Tur
    } 1 ya da daha büyük bir tam sayı olmalı, '{ $given }' değil
season-none = { $number }. sezon yok; sezonlar 1'den başlayarak numaralanır.
round-none = { $number }. tur yok; turlar 1'den başlayarak numaralanır.
parse-in-range = { $key ->
        [signup] kayıt
        [reach] erim
        [wait] bekleme
       *[rounds] turlar
    } { $min } ile { $max } arası bir tam sayı olmalı, '{ $given }' değil
parse-ladder-variant = ladder burada tek bir varyant adı alır, '{ $given }' değil
parse-ladder-days = Merdivende hamle başına gün 1, 2, 3, 5, 7, 10 ya da 14 olmalı
parse-ladder-create-key = ladder create gün:N, erim:N ve bekleme:N alır, '{ $given }' değil
parse-ladder-create-variant = ladder create tek bir varyant alır; '{ $given }' fazla
parse-ladder-create-which = Hangi varyant olduğunu söyle, ör. { $p }ladder create chess days:3 reach:3 wait:3
parse-ladder-undo = Hangi sonucun (duyurusundaki numarayla) neden geri alınacağını söyle, ör. { $p }ladder undo 5 yanlış sonuç
parse-ladder-season = { $p }ladder season close ya da kapanmış bir sezonu görmek için { $p }ladder season N yaz
parse-ladder-action = '{ $given }' diye bir merdiven işlemi yok; işlemler: { $actions }
parse-tournament-two = Yalnızca bir turnuva belirt, iki değil
parse-tournament-only-number = tournament { $action } yalnızca turnuvanın numarasını alır, '{ $given }' değil
parse-tournament-round = Hangi tur olduğunu söyle, ör. { $p }tournament round 2
parse-tournament-number = { $number } numaralı turnuva için #{ $number } yaz, ör. { $p }tournament #{ $number } join (# olmayan bir sayı turdur: { $p }tournament round { $number })
parse-tournament-action = '{ $given }' diye bir turnuva işlemi yok; işlemler: { $actions }
parse-tournament-days = Turnuvada hamle başına gün 1, 2, 3, 5, 7, 10 ya da 14 olmalı
parse-signup = kayıt, kaydın açık kalacağı gün sayısıdır, 0 ile 30 arası olmalı, '{ $given }' değil
parse-tournament-create-key = tournament create turlar:N, gün:N ve kayıt:N alır, '{ $given }:' değil
parse-tournament-two-variants = '{ $first }' ve '{ $second }' ikisi de varyant; bir turnuva tek varyantta oynanır. Varyant adıyla başlayan bir isim için önüne başka bir kelime koy, ör. Büyük { $second } Kupası
parse-tournament-two-systems = '{ $first }' ve '{ $second }' ikisi de turnuva sistemi; bir turnuvanın tek sistemi olur. Sistem adıyla başlayan bir isim için önüne başka bir kelime koy, ör. Büyük { $second } Kupası
parse-rounds-swiss = rounds:N İsviçre sistemi içindir; lig usulü turnuva gerektiği kadar tur oynar
parse-tournament-system = Turnuvalar lig ({ optvalue-roundrobin }), çift devreli lig ({ optvalue-double }) ya da İsviçre sistemi ({ optvalue-swiss }) olur, '{ $given }' değil
parse-unknown-command = '{ $name }' diye bir komut yok
parse-subcommand-needed = { $name } işlemlerinden biriyle kullanılır: { $subcommands }
parse-option-needed = { $name } için '{ $option }' seçeneği gerekli
parse-option-person = '{ $option }' seçeneği bir kişi olmalı
parse-option-bool = '{ $option }' seçeneği doğru ya da yanlış olur
parse-option-one-word = '{ $option }' seçeneği tek kelimedir, '{ $given }' değil
parse-option-unknown = { $name } komutunun '{ $option }' diye bir seçeneği yok
parse-option-type = '{ $option }' seçeneğinin türünü kabul etmiyorum
settings-web-community = web: bir topluluk kuralıdır: { $p }settings community web:on|off.
settings-web-rule = , web sayfaları { $web }
web-no-community = Web sayfaları bir topluluğa aittir; bu sohbet hiçbir topluluğa bağlı değil.
web-not-served = capabot burada web sayfası sunmuyor (yapılandırmasında [web] public_url yok).
web-off = Bu topluluk web'de değil. Bir yönetici açabilir: { $p }settings community web:on.
web-address = Bu topluluk web'de: { $url }
web-game-link = İzle: { $url }
# Bir varyantın sohbetlerde okunan adı, kısa adına göre (yazılan yine kısa addır).
variant-name = { $variant ->
        [chess] Satranç
        [capablanca] Capablanca Satrancı
        [caparandom] Capablanca Rastgele Satrancı
        [caparelocation] Capablanca Yer Değiştirme Satrancı
        [stones] Stone Satrancı
        [atomic] Atomik Satranç
        [capatomic] Capatomic Rastgele Satranç
        [atomic-nocheck] Şah Çekmesiz Atomik Satranç
        [atomic-deathmatch] Ölüm Maçı Atomik Satranç
        [atomic-pawnsafe] Piyonu Güvenli Atomik Satranç
        [bomb] Gizli Bomba Satrancı
       *[other] { $variant }
    }
