# Yardım ve kural sayfaları. $p bir komutun burada nasıl yazıldığıdır.

help-head-slash = Komutlar: / yazıp listeden birini seç; ardından seçenekleri doldurman için gösterilir. Bir cevabımda düğmeler varsa, birine basmak o komutla aynı işi görür:
help-head = Komutlar (önek { $p }):
help-head-direct = Komutlar (burada yazdığın her satır bana gelir, önek gerekmez):
help-example = , ör. { $p }{ $example }
help-one-aliases = Diğer adları: { $aliases }
help-one-options = Seçenekler:
help-one-subcommands = Alt komutlar:
help-one-foot = { $p }help bütün komutları listeler.
help-foot = Hamle başına gün: 1, 2, 3, 5, 7, 10, 14 ya da none. Hamleler: { $moves }, Me1^e5 (Capatomic füze atışı), O-O[e1,g1] (füzelerle rok), @e4 ya da boom e4 (gizli bombanın patlatılması). { $p }variants, { $p }rules capatomic. Hamleler her satranç sunucusunda olduğu gibi İngilizce harflerle yazılır: K şah (King), Q vezir (Queen), R kale (Rook), B fil (Bishop), N at (kNight), A arkfil (Archbishop: fil + at), C şansölye (Chancellor: kale + at), M füze (Missile); piyonun harfi yoktur (e4, exd5). Dil: { $p }lang en (English), { $p }lang de (Deutsch) ya da { $p }lang tr.

# Bir varyantın kural sayfası: adı, sonra sayfa ve hamle harfleri.
rules-page = { $variant }: { $page } Hamle harfleri İngilizcedir: K şah, Q vezir, R kale, B fil, N at, A arkfil, C şansölye, M füze; piyonun harfi yoktur.
rules-chess = Standart satranç (FIDE kuralları): mat eden kazanır; pat, üç kez tekrar, elli hamle kuralı ve kimsenin mat edemeyeceği konumlar beraberliktir.
rules-capablanca = 10×8 tahtada iki yeni taşla satranç: arkfil (A, fil + at) ve şansölye (C, kale + at). Dizilim RNABQKBCNR. Rok şahı i1/c1'e, kaleyi h1/d1'e koyar. Piyonlar Q, C, A, R, B ya da N'ye terfi eder.
rules-caparandom = 21.836 karışık arka sıradan biriyle Capablanca satrancı: filler ayrı renklerde, vezir ile arkfil ayrı renklerde, şah iki kalenin arasında, her piyon korunuyor. Rok her zamanki karelerde biter (şah i1/c1, kale h1/d1); O-O / O-O-O ya da şahı kendi kalesinin üstüne oynayarak yazılır.
rules-caparelocation = Capablanca satrancı; ilk hamleden önce sırayla Siyah ve Beyaz, şahının ya da vezirinin yerini kale olmayan başka bir taşla değiştirebilir (filler ayrı renklerde kalmalı): her taraf için 12 seçenek, 144 konum. Şah nerede durursa dursun rok hakkını korur; rok her zamanki karelerde biter (şah i1/c1, kale h1/d1).
rules-stones = 10×8 tahtada iki arkfille (fil + at) satranç, dizilim RNABQKBANR. Şah rok yaparken üç kare kayar (i1 ya da c1'e, kale h1 ya da d1'e). Piyonlar Q, A, R, B ya da N'ye terfi eder.
rules-atomic = Her alışın patladığı satranç: alınan taş, alan taş ve çevredeki sekiz karede piyon dışındaki bütün taşlar tahtadan kalkar. Rakip şahı patlatan hemen kazanır; şahlar taş alamaz; kendi şahını patlatan hamle oynanamaz; birbirine değen şahlar birbirine şah çekemez.
rules-capatomic = Her tarafın şahının arkasında iki füze (M) bulunan, 10×10 tahtada Capablanca Rastgele Satrancı. Füze şah gibi bir kare gider ya da piyon dışında herhangi bir taş alındıktan sonra, füzenin kendisini hiçbir rakip taş tehdit etmiyorsa, şahların kalkanları (her şahın çevresindeki 3×3) dışındaki herhangi bir kareye atılabilir (yazılışı Me1^e5): 3×3 patlama alanındaki her şey, kalkanlı kareler dışında, kalkar ve hedef kare kalıcı olarak radyasyonlu olur (üstünde taş duramaz, içinden geçilemez; at üstünden atlar). Hiç oynamamış füzeler rok yaparken şahın yanındaki yerlerini koruyarak gelebilir: O-O[e1,g1] ikisini, O-O[g1] birini getirir. Piyonlar 3. sırada başlar ve 9. sırada Q, C, A, R, B, N ya da M'ye terfi eder.
rules-atomic-nocheck = Şah çekmenin olmadığı atom satrancı (Internet Chess Club kuralları): kendi şahını patlatmayan her hamle serbesttir; şah saldırı altındaki kareye yürüyebilir ve saldırı altında bırakılan şah alınabilir, alınınca patlar. Şahlar hiç taş almaz. Yalnızca rakip şahı patlatan kazanır; yasal hamlesi olmayan taraf pattır.
rules-atomic-deathmatch = İki şahı birden patlatan alışın yasal olduğu atom satrancı: oyun şahsız (şah çekmeden) sürer, taşı ya da piyonu kalmayan taraf kaybeder; boş tahta ya da yasal hamlesi olmayan şahsız taraf beraberliktir. Yalnızca kendi şahını patlatmak yine yasaktır.
rules-atomic-pawnsafe = Piyonların patlama başlatmadığı atom satrancı: piyonla alış (geçerken alma ve terfi dahil) sıradan bir alıştır. Taşlarla alışlar her zamanki gibi patlar ve patlama, piyonlar dahil çevredeki sekiz karedeki her taşı yok eder. Şah çekme atom satrancındaki gibidir.
rules-bomb = Her tarafın ilk hamlesinden önce şah dışındaki taşlarından birini (piyon da olur) gizlice bombası olarak seçtiği satranç. Hamle yapmak yerine bombanı patlatabilirsin (@e4 ya da boom e4): bomba ve çevredeki sekiz karedeki iki renkten bütün taşlar kalkar. Rakip şahı kaldıran kazanır, yalnızca kendi şahını kaldıran kaybeder, ikisi birden beraberliktir; şah altındayken patlatma şahını sağ ve güvende bırakmalıdır. Alınan bomba gider; bomba olan piyon terfi ederse yeni taş bombadır.

# Her komutun adından sonra nasıl yazıldığı (yardımda): yazılan sözcükler olduğu gibi kalır,
# yer tutucular (varyant, oyun, hamle…) çevrilir.
usage-challenge = [@kişi] [varyant] [gün:N] [renk:beyaz|siyah|rastgele] [dizilim:N] [puansız]
usage-play = [varyant] [seviye:1-8] [gün:N] [renk:beyaz|siyah|rastgele] [dizilim:N]
usage-accept = [#no]
usage-decline = [#no]
usage-move = [#oyun] <hamle>
usage-board = [#oyun]
usage-resign = [#oyun]
usage-draw = [#oyun] [reddet]
usage-takeback = [#oyun] [reddet]
usage-abort = [#oyun]
usage-fen = [#oyun]
usage-pgn = [#oyun] [analizli]
usage-analyse = [#oyun]
usage-gif = [#oyun]
usage-rematch = [#oyun]
usage-swap = [#oyun] <K|Q> <sütun ya da taş>
usage-noswap = [#oyun]
usage-moves = [#oyun] [kare]
usage-bomb = [#oyun] [kare]
usage-rules = [varyant]
usage-settings = [topluluk] [önek:?] [varyant:AD] [gün:N] [alt-başlık:açık|kapalı] [gif:açık|kapalı] [tema:ahşap|yeşil|karşıtlık] [dil:en|tr|de] [puanlı:serbest|daima|asla] [web:açık|kapalı] (her biri :varsayılan da alır)
usage-notify = [açık|kapalı]
usage-lang = [en|tr|de|varsayılan]
usage-theme = [ahşap|yeşil|karşıtlık|varsayılan]
usage-rating = [@kişi] [varyant|hepsi] [genel]
usage-leaderboard = [varyant] [genel]
usage-history = [@kişi] [varyant] [genel]
usage-link = [KOD]
usage-ladder = [durum|katıl|ayrıl|meydan-oku @kişi|kabul|reddet|vazgeç|oluştur|çıkar @kişi|geri-al N gerekçe|sezonu-kapat|sezon N] [varyant]
usage-tournament = [#N] [puan-durumu|tur N|çapraz-tablo|katıl|ayrıl|çekil|oluştur|başlat|iptal] (oluştur: [tek-devre|çift-devre|isviçre-sistemi] [varyant] [turlar:N] [gün:N] [kayıt:N] [ad])
usage-help = [komut]
