# ruff: noqa: E501  (one sentence per line is easier to proofread than wrapped text)
"""Demo corpus data: documents ``news-science-05`` and ``news-sport-06``.

Original news-style text written for mtdash (not taken from any published
corpus). The format is described in :mod:`mtdash.demo.corpus_energy_health`
and parsed by :mod:`mtdash.demo.corpus`.
"""

DOCUMENTS_TEXT = """
== news-science-05

fr: Les glaciers des Alpes françaises ont perdu en moyenne 1,8 mètre d'épaisseur en 2023, selon une étude publiée jeudi.
A: The glaciers of the French Alps lost an average of 1.8 metres in thickness in 2023, according to a study published on Thursday.
B: French Alpine glaciers thinned by 1.8 metres on average in 2023, a study published Thursday shows.
C: According to a study released on Thursday, glaciers in the French Alps became 1.8 metres thinner on average in 2023.
D: In 2023, the glaciers in the French Alps shrank by an average of 1.8 m in thickness, a study published on Thursday reports.
E: Glaciers in the French Alps lost 1.8 metres of thickness on average in 2023, according to a study that came out on Thursday.

fr: Les chercheurs de l'université Grenoble-Alpes ont mesuré l'évolution de trente glaciers grâce à des balises et à des images satellites.
A: Researchers at the Université Grenoble-Alpes measured changes in thirty glaciers using beacons and satellite images.
B: Scientists from Grenoble-Alpes University tracked how thirty glaciers had changed, using markers and satellite imagery.
C: Using beacons and satellite pictures, researchers from the University of Grenoble-Alpes measured the development of thirty glaciers.
D: The Grenoble-Alpes University team monitored changes to thirty glaciers with the help of stakes and satellite images.
E: Researchers from Grenoble-Alpes University measured the evolution of thirty glaciers by means of beacons and satellite pictures.

fr: La Mer de Glace, le plus grand glacier de France, recule désormais d'environ quarante mètres chaque année.
A: The Mer de Glace, the largest glacier in France, is now retreating by about forty metres every year.
B: France's biggest glacier, the Mer de Glace, is now shrinking back by around forty metres a year.
C: The Mer de Glace, France's largest glacier, now loses roughly forty metres of length each year.
D: Each year the Mer de Glace, the biggest glacier in the country, now retreats by some forty metres.
E: Now the Mer de Glace, France's largest glacier, is receding by approximately forty metres annually.

fr: « Ce qui nous frappe, c'est l'accélération : les pertes de ces cinq dernières années dépassent celles des vingt années précédentes », note la glaciologue Anaïs Roussel.
A: "What strikes us is the acceleration: the losses of the last five years exceed those of the previous twenty years," notes glaciologist Anaïs Roussel.
B: "What really stands out is how fast it is speeding up: the past five years have seen more loss than the twenty before," says glaciologist Anaïs Roussel.
C: Glaciologist Anaïs Roussel notes: "The acceleration is what strikes us: more has been lost in the last five years than in the previous two decades."
D: "What is striking to us is the acceleration, with losses over the last five years surpassing those of the preceding twenty," observed glaciologist Anaïs Roussel.
E: "What strikes us is the speeding up: the losses over these last five years are greater than those of the twenty years before," glaciologist Anaïs Roussel remarks.

fr: La fonte a des conséquences directes sur la production hydroélectrique et sur l'approvisionnement en eau des vallées en été.
A: The melting has direct consequences for hydroelectric production and for the water supply of the valleys in summer.
B: The melt directly affects hydroelectric output and the supply of water to the valleys in summer.
C: Melting has a direct impact on hydroelectric power generation and on the valleys' water supply during the summer.
D: The thaw has direct consequences on hydropower production and on the summer water supply for the valleys.
E: The melting directly impacts hydroelectric production and the water supply of the valleys during summertime.

fr: Elle accroît aussi le risque d'éboulements, comme celui qui a coupé la route du col du Lautaret en avril.
A: It also increases the risk of rockfalls, like the one that cut off the road over the Col du Lautaret in April.
B: It also raises the risk of landslides, such as the one that blocked the Lautaret pass road in April.
C: The risk of rockslides is also increased, as with the one that closed the road to the Col du Lautaret in April.
D: It heightens the danger of rockfalls too, like the slide that cut the road through the Lautaret Pass in April.
E: It also increases the risk of rock falls, such as the one that severed the road over the Lautaret pass in April.

fr: Les scientifiques estiment que la moitié des glaciers étudiés pourraient disparaître avant 2050 si les émissions ne diminuent pas.
A: Scientists estimate that half of the glaciers studied could disappear before 2050 if emissions do not decrease.
B: Scientists believe half the glaciers in the study may vanish before 2050 unless emissions fall.
C: If emissions are not reduced, half of the glaciers that were studied could be gone by 2050, the scientists estimate.
D: According to the scientists' estimates, half of the glaciers under study might disappear before 2050 if emissions do not come down.
E: The scientists reckon that half the glaciers they studied could vanish before 2050 if emissions fail to decline.

fr: Une partie des données sera rendue publique afin que les communes de montagne puissent adapter leurs plans de prévention.
A: Part of the data will be made public so that mountain municipalities can adapt their prevention plans.
B: Some of the data will be published so mountain towns can adjust their risk-prevention plans.
C: Some of the findings will be released publicly so that mountain communities can update their prevention plans.
D: A portion of the data will be made available to the public to allow mountain villages to adapt their prevention strategies.
E: So that mountain communes can adjust their prevention plans, some of the data will be made publicly available.

== news-sport-06

fr: Le petit club de handball de Saint-Amand a décroché samedi sa montée en deuxième division, une première en 57 ans d'existence.
A: The small handball club of Saint-Amand secured promotion to the second division on Saturday, a first in its 57-year history.
B: On Saturday, Saint-Amand's small handball club won promotion to the second division for the first time in its 57 years.
C: Little Saint-Amand handball club earned a place in the second division on Saturday, something it had never done in 57 years of existence.
D: Saint-Amand, a modest handball club, clinched its move up to the second tier on Saturday, a first in the club's 57 years.
E: The little handball club from Saint-Amand won promotion to division two on Saturday, the first time this has happened in its 57-year existence.

fr: Devant 2 300 spectateurs, les joueurs se sont imposés 31 à 27 face à Chambéry, pourtant favori de la rencontre.
A: In front of 2,300 spectators, the players won 31-27 against Chambéry, who had been the favourites for the match.
B: Before a crowd of 2,300, the team beat Chambéry 31 to 27, even though Chambéry were favourites.
C: The players defeated favourites Chambéry by 31 to 27 in front of 2,300 fans.
D: With 2,300 spectators watching, the side won 31-27 against Chambéry, who had been expected to win the game.
E: The players beat Chambéry 31-27 in front of 2,300 spectators, despite their opponents being favourites for the game.

fr: L'entraîneur, Mathieu Guérin, a salué « un collectif exceptionnel » composé en majorité de joueurs formés au club.
A: The coach, Mathieu Guérin, praised "an exceptional team" made up mostly of players trained at the club.
B: Coach Mathieu Guérin hailed "an exceptional group", most of whom came through the club's youth system.
C: Mathieu Guérin, the coach, paid tribute to "an outstanding collective", the majority of them home-grown players.
D: Head coach Mathieu Guérin applauded "an exceptional squad" consisting largely of players developed by the club.
E: The coach, Mathieu Guérin, commended "an exceptional unit" made up mainly of players who trained at the club.

fr: Le budget de l'équipe, environ 800 000 euros, reste l'un des plus modestes du championnat.
A: The team's budget, about 800,000 euros, remains one of the smallest in the league.
B: At around €800,000, the team's budget is still one of the most modest in the championship.
C: The club's budget of roughly 800,000 euros is still among the lowest in the league.
D: With a budget of some €800,000, the team remains one of the least well-funded in the championship.
E: The team's budget, approximately €800,000, remains among the most modest in the championship.

fr: Pour se maintenir la saison prochaine, le président espère attirer de nouveaux partenaires parmi les entreprises locales.
A: To stay up next season, the president hopes to attract new sponsors among local businesses.
B: In order to avoid relegation next season, the chairman hopes to bring in new partners from local companies.
C: The president is hoping to win over new partners among local firms so the club can stay in the division next season.
D: To keep the team in the division next season, the club president hopes to attract new partners from the local business community.
E: To survive in the division next season, the president hopes to draw in new partners from among local companies.

fr: La salle municipale, qui ne compte que 1 500 places assises, devra aussi être agrandie pour répondre aux normes de la ligue.
A: The municipal hall, which has only 1,500 seats, will also have to be enlarged to meet league standards.
B: The town's sports hall, with just 1,500 seats, will also need to be expanded to comply with league rules.
C: With only 1,500 seats, the municipal arena will also have to be extended to meet the league's requirements.
D: The council-owned gym, seating only 1,500 people, must also be made bigger to satisfy the league's standards.
E: The municipal hall, which only has 1,500 seats, will also need enlarging to satisfy the league's norms.

fr: Le maire a annoncé qu'une enveloppe de 1,5 million d'euros serait débloquée dès l'an prochain pour financer les travaux.
A: The mayor announced that 1.5 million euros would be released as early as next year to fund the work.
B: The mayor said €1.5 million would be made available from next year to pay for the works.
C: Funding of €1.5 million will be freed up next year to finance the building work, the mayor announced.
D: According to the mayor, a budget of 1.5 million euros will be allocated starting next year to cover the cost of the work.
E: The mayor has announced that a sum of €1.5 million will be unlocked next year to pay for the works.

fr: Dans les rues de Saint-Amand, les supporters ont fêté la victoire jusque tard dans la nuit, au son des klaxons.
A: In the streets of Saint-Amand, supporters celebrated the victory late into the night to the sound of car horns.
B: Fans celebrated the win in the streets of Saint-Amand until late at night, honking their horns.
C: Supporters partied in Saint-Amand's streets until late into the night, with car horns blaring.
D: The supporters took to the streets of Saint-Amand to celebrate the victory well into the night amid the sound of honking horns.
E: In Saint-Amand's streets, the fans celebrated the victory late into the night, accompanied by the blaring of car horns.
"""
