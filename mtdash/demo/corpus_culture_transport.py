# ruff: noqa: E501  (one sentence per line is easier to proofread than wrapped text)
"""Demo corpus data: documents ``news-culture-03`` and ``news-transport-04``.

Original news-style text written for mtdash (not taken from any published
corpus). The format is described in :mod:`mtdash.demo.corpus_energy_health`
and parsed by :mod:`mtdash.demo.corpus`.
"""

DOCUMENTS_TEXT = """
== news-culture-03

fr: Après quatre ans de travaux, le musée des Beaux-Arts de Rouen rouvre ses portes au public ce samedi.
A: After four years of renovation, the Rouen Museum of Fine Arts reopens its doors to the public this Saturday.
B: The Musée des Beaux-Arts in Rouen is opening to the public again on Saturday after four years of works.
C: Following four years of building work, Rouen's fine arts museum will welcome visitors again this Saturday.
D: This Saturday, after four years of refurbishment, the Fine Arts Museum in Rouen reopens to the public.
E: After four years of work, the Rouen Museum of Fine Arts is reopening its doors to visitors this Saturday.

fr: La rénovation, financée à hauteur de 38 millions d'euros par la ville et la région, a permis d'agrandir les salles d'exposition d'un tiers.
A: The renovation, funded to the tune of 38 million euros by the city and the region, has enlarged the exhibition space by a third.
B: Financed with €38 million from the city and the region, the refurbishment made it possible to expand the galleries by one third.
C: The city and the region paid €38 million for the renovation, which has increased the exhibition rooms by a third.
D: Thanks to the renovation, paid for with 38 million euros from the town and the region, the exhibition halls are now a third larger.
E: The renovation, for which the city and region provided 38 million euros, has made the exhibition rooms one-third bigger.

fr: Le parcours a été entièrement repensé pour mettre en valeur les collections impressionnistes, l'un des points forts du musée.
A: The visitor route has been completely redesigned to showcase the Impressionist collections, one of the museum's highlights.
B: The layout has been entirely rethought to highlight the impressionist collections, which are among the museum's strengths.
C: To put the spotlight on its Impressionist works, one of the museum's great strengths, the tour has been fully reorganised.
D: The itinerary through the galleries was completely reworked in order to display the Impressionist collections, a key strength of the museum, to best effect.
E: The visit has been totally reconceived to bring out the Impressionist collections, one of the museum's strong points.

fr: Une salle entière est désormais consacrée aux vues de la cathédrale peintes par Claude Monet entre 1892 et 1894.
A: An entire room is now devoted to the views of the cathedral painted by Claude Monet between 1892 and 1894.
B: A whole gallery is now dedicated to Claude Monet's views of the cathedral, painted between 1892 and 1894.
C: Claude Monet's paintings of the cathedral, produced between 1892 and 1894, now have a room entirely to themselves.
D: One full room is now given over to the views of the cathedral that Claude Monet painted from 1892 to 1894.
E: A complete room is henceforth dedicated to the cathedral views painted by Claude Monet between 1892 and 1894.

fr: « Nous voulions que les habitants se réapproprient ce lieu, qui leur appartient », explique la directrice, Sylvie Chauvière.
A: "We wanted local people to take ownership of this place again, because it belongs to them," explains the director, Sylvie Chauvière.
B: "We wanted residents to reclaim this place, which is theirs," says the museum's director, Sylvie Chauvière.
C: Director Sylvie Chauvière explains: "Our aim was for the people of the city to make this place their own again, since it belongs to them."
D: "We wanted the townspeople to feel at home again in a space that is theirs," said Sylvie Chauvière, the director.
E: "We wanted the inhabitants to take back this place, which belongs to them," the director, Sylvie Chauvière, explains.

fr: L'entrée sera gratuite pour tous pendant le premier week-end, puis fixée à 9 euros, avec un tarif réduit pour les étudiants.
A: Admission will be free for everyone during the first weekend, then set at 9 euros, with a reduced rate for students.
B: Entry will be free for all on the opening weekend and will then cost €9, with a discount for students.
C: Everyone can get in for free over the first weekend; after that, tickets will cost €9, with concessions for students.
D: Admission is free to all for the first weekend, and afterwards it will be 9 euros, with a lower price for students.
E: Entrance will be free for all during the first weekend, after which it will be priced at €9, with a reduced fee for students.

fr: Les organisateurs attendent plus de 20 000 visiteurs pour ces journées d'ouverture, qui comprennent des concerts et des visites nocturnes.
A: The organisers expect more than 20,000 visitors for these opening days, which include concerts and night-time tours.
B: Organisers are expecting over 20,000 people for the opening days, which feature concerts and evening visits.
C: More than 20,000 visitors are expected at the opening days, whose programme includes concerts and tours at night.
D: Over 20,000 visitors are anticipated by the organisers for the opening celebrations, featuring concerts and late-night tours.
E: The organisers are counting on more than 20,000 visitors over the opening days, which will feature concerts and guided tours after dark.

fr: Certains commerçants du centre-ville espèrent que le musée attirera à nouveau les touristes étrangers, encore rares depuis la pandémie.
A: Some city-centre shopkeepers hope that the museum will once again attract foreign tourists, who have remained scarce since the pandemic.
B: A number of downtown retailers hope the museum will bring back foreign tourists, still few and far between since the pandemic.
C: Some traders in the town centre are hoping the museum will draw foreign tourists again, as they have been rare since the pandemic.
D: Several shop owners in the city centre hope that the museum will win back foreign visitors, who are still rare after the pandemic.
E: Certain merchants in the city centre hope the museum will attract foreign tourists again, still uncommon since the pandemic.

== news-transport-04

fr: La nouvelle ligne de tramway reliant le centre de Montpellier aux plages de Palavas-les-Flots sera mise en service le 3 juin.
A: The new tram line linking central Montpellier to the beaches of Palavas-les-Flots will enter service on 3 June.
B: The new tramway connecting Montpellier city centre with the Palavas-les-Flots beaches opens on June 3.
C: On 3 June, a new tram line will start running between the centre of Montpellier and the beaches at Palavas-les-Flots.
D: Service on the new tram line between downtown Montpellier and the Palavas-les-Flots beaches is due to begin on June 3.
E: The new tramway line connecting the centre of Montpellier to the beaches of Palavas-les-Flots will be put into service on 3 June.

fr: Longue de 14 kilomètres, elle comptera dix-neuf stations et permettra de rejoindre la mer en moins de trente minutes.
A: At 14 kilometres long, it will have nineteen stops and will make it possible to reach the sea in less than thirty minutes.
B: The 14-kilometre line will have nineteen stations and will take passengers to the sea in under thirty minutes.
C: It will be 14 km long, with nineteen stations, and will get travellers to the seaside in less than half an hour.
D: Stretching 14 kilometres, the line will include 19 stations and allow riders to get to the sea in under 30 minutes.
E: The line, which is 14 kilometres long, will have nineteen stations and will let people reach the sea in less than thirty minutes.

fr: Le projet a été retardé de deux ans par des recours juridiques et par la découverte de vestiges romains sur le tracé.
A: The project was delayed by two years by legal challenges and by the discovery of Roman remains along the route.
B: Lawsuits and the discovery of Roman ruins along the route held the project up for two years.
C: Legal appeals, as well as Roman remains unearthed on the planned route, set the project back by two years.
D: The scheme suffered a two-year delay because of court challenges and the discovery of Roman archaeological remains on the line's path.
E: The project was held back two years by legal appeals and the discovery of Roman vestiges along the route.

fr: Le ticket restera au prix de 1,70 euro, mais un abonnement mensuel à 20 euros sera proposé aux moins de 26 ans.
A: A ticket will still cost 1.70 euros, but a monthly pass at 20 euros will be offered to people under 26.
B: Tickets will stay at €1.70, but under-26s will be offered a monthly pass for €20.
C: The single fare will remain €1.70, while young people under 26 will be able to buy a 20-euro monthly subscription.
D: The price of a ticket will remain 1.70 euros, but those aged under 26 will get access to a €20 monthly season ticket.
E: The ticket will remain priced at €1.70, but a monthly pass costing €20 will be available to under-26s.

fr: Les riverains de l'avenue de la Mer se plaignent du bruit des essais nocturnes, qui se poursuivent jusqu'à deux heures du matin.
A: Residents of the Avenue de la Mer are complaining about the noise from the night-time trials, which go on until two in the morning.
B: People living along the Avenue de la Mer complain about noise from test runs at night, which continue until 2 a.m.
C: Locals on the Avenue de la Mer are unhappy about the noisy overnight tests, which carry on until two o'clock in the morning.
D: Residents on Avenue de la Mer have complained about the noise of nocturnal tests that last until 2am.
E: Those living on the avenue de la Mer object to the noise of the night tests, which continue until two in the morning.

fr: « On ne dort plus depuis trois semaines », résume Karim Benali, qui habite à quelques mètres des rails.
A: "We haven't slept for three weeks," sums up Karim Benali, who lives a few metres from the tracks.
B: "We've not had any sleep for three weeks," says Karim Benali, who lives just metres from the rails.
C: Karim Benali, whose home is a few metres away from the line, puts it simply: "We haven't been sleeping for three weeks."
D: "Nobody has slept for the past three weeks," said Karim Benali, who lives only a few metres from the tracks.
E: "We have not been able to sleep for three weeks," Karim Benali, who lives a few metres from the rails, summarises.

fr: La métropole assure que les tests nocturnes cesseront dès la fin du mois et promet l'installation de murs antibruit.
A: The metropolitan authority says night tests will stop at the end of the month and is promising to install noise barriers.
B: The metropolis insists the night-time testing will end by the end of the month and promises to put up anti-noise walls.
C: According to the metropolitan council, the overnight tests will be over by the end of the month, and noise barriers will be installed.
D: The metropolitan area authorities give assurances that testing at night will cease at the end of the month, and pledge to build soundproof walls.
E: The metropolitan authority maintains that the night tests will end as soon as the month is over and pledges to install noise walls.

fr: À terme, la collectivité espère retirer de la circulation près de 12 000 voitures par jour sur la route des plages.
A: Ultimately, the local authority hopes to take nearly 12,000 cars a day off the beach road.
B: In the long term, the authority hopes to remove almost 12,000 cars per day from the road to the beaches.
C: Eventually, the council hopes there will be close to 12,000 fewer cars a day on the beach road.
D: The local government's long-term aim is to get around 12,000 vehicles a day off the road leading to the beaches.
E: In time, the local authority hopes to take close to 12,000 cars per day off the road to the beaches.
"""
