# Web sayfaları (src/web): başlıklar ve etiketler.
web-site = capabot
web-home-title = sohbetinde satranç çeşitleri
web-home-text = capabot, Discord sunucularındaki ve Matrix odalarındaki insanlarla satranç çeşitleri oynar: meydan okumalar, yazılan ya da tıklanan hamleler, her hamleden sonra tahtanın resmi, puanlar, merdivenler ve turnuvalar, oyundan sonra da bilgisayar analizi. Web'de olmayı seçen bir topluluğun burada bir sayfası, her oyununun da bir sayfası vardır; bunlara oynandıkları sohbetten bağlantı verilir (orada web yaz). Burada hiçbiri listelenmez.
web-home-variants = Varyantlar
web-game-title = { $white } - { $black }, { $variant }
web-game-heading = { $white } - { $black }
web-white = Beyaz
web-black = Siyah
web-rated = puanlı
web-casual = puansız
web-moves = Hamleler
web-no-moves = Henüz hamle yok.
web-board-after = { $move } sonrası tahta
web-board-start = Başlangıçtaki tahta
web-first = İlk
web-previous = Önceki
web-next = Sonraki
web-last = Son
web-keys = Ok tuşlarıyla hamleler arasında gezinebilirsin.
web-days-left = { $days ->
        [0] Hamle için bir günden az kaldı.
       *[other] Hamle için { $days } gün kaldı.
    }
web-downloads = İndirmeler
web-pgn = PGN
web-gif = Canlandırma (GIF)
web-pgn-analysed = Analizli PGN
web-analysis = Bilgisayar analizi
web-analysis-head = capabot'un motoruyla, konum başına { $nodes } düğüm.
web-analysis-ask = Henüz yok: bu oyunun oynandığı sohbetteki herkes orada isteyebilir: { $command }. Yapılınca burada da görünür.
web-analysis-marked = Kusurlu hamleler (?!), hatalar (?) ve büyük hatalar (??)
web-analysis-none-marked = Motorun gördüğü bir hata yapılmadı.
web-live = Canlı: hamleler oynandıkça burada görünür.
web-community-title = Topluluk { $id }
web-leaderboards = Sıralamalar
web-leaderboard = { $variant }
web-place = Sıra
web-player = Oyuncu
web-rating = Puan
web-games = Oyun
web-provisional = Geçici
web-nobody = Henüz kimsenin puanı kesinleşmedi.
web-ladders = Merdivenler
web-ladder = { $variant } merdiveni, { $season }. sezon
web-open-challenges = Açık meydan okumalar
web-challenge = { $challenger }, { $challenged } oyuncusuna meydan okudu{ $accepted ->
        [yes] { " " }(kabul edildi)
       *[no] {""}
    }
web-seasons-closed = Kapanan sezonlar
web-season-closed = { $variant }, { $season }. sezon
web-older-seasons = { $count ->
        [one] Daha eski bir sezon gösterilmiyor.
       *[other] Daha eski { $amount } sezon gösterilmiyor.
    }
web-more-open-tournaments = { $count ->
        [one] Süren bir turnuva daha burada gösterilmiyor; sohbet hepsini listeler (tournament).
       *[other] Süren { $amount } turnuva daha burada gösterilmiyor; sohbet hepsini listeler (tournament).
    }
web-more-open-tournaments-many = Süren ve burada gösterilmeyen turnuvaların sayısı { $count } üzerinde; sohbet hepsini listeler (tournament).
web-older-tournaments = { $count ->
        [one] Daha önce bitmiş bir turnuva daha gösterilmiyor.
       *[other] Daha önce bitmiş { $amount } turnuva daha gösterilmiyor.
    }
web-older-tournaments-many = Daha önce bitmiş ve gösterilmeyen turnuvaların sayısı { $count } üzerinde.
web-tournaments = Turnuvalar
web-tournament = { $name } ({ $variant }, { $status ->
        [registration] kayıt açık
        [running] sürüyor
       *[finished] bitti
    })
web-standings = Puan durumu
web-score = Puan
web-crosstable = Çapraz tablo
web-round = { $number }. tur
web-result = Sonuç
web-bye = Bay: { $name }
web-recent = Son oyunlar
web-game = Oyun
web-opponent = Rakip
web-variant = Varyant
web-state = Durum
web-none = Henüz bir şey yok.
web-ratings = Puanlar
web-history = Puan geçmişi
web-history-alt = { $name } oyuncusunun { $variant } puan geçmişi grafiği.
web-not-found = Bulunamadı
web-not-found-text = Burada bir şey yok ya da herkese açık değil.
web-bad-request = Hatalı istek
web-bad-request-text = Bu, capabot'un verdiği bir adres değil.
web-too-many = Çok fazla istek
web-too-many-text = Biraz yavaşla ve yeniden dene.
web-failed = Bir şeyler ters gitti
web-failed-text = Bu sayfa hazırlanamadı. Lütfen sonra yeniden dene.
